// Package events is the per-session live event hub: it numbers each
// session's run events 1, 2, 3, … (PLATFORM §4), keeps a window of them in
// memory, hands them in order to subscribers (SSE and GraphQL subscriptions)
// and writes them to a durable Log in the background, so a client that
// reconnects with the last seq it saw misses nothing, even after a restart.
//
// The hub never lets a subscriber or the Log slow a run: Publish does only
// memory work under a per-session lock; a subscriber that cannot keep up is
// dropped with ErrLagged and resumes from its last seq.
package events

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/wetel/wetel/clock"
)

// Event is one numbered event of a session. Seq is 1, 2, 3, … per
// (WorkspaceID, SessionID), with no gaps; Type is the engine's event kind
// ("RunStarted", "Message", …); Payload is the event's JSON, marshalled once.
type Event struct {
	WorkspaceID int64
	SessionID   int64
	Seq         int64
	Type        string
	Payload     json.RawMessage
	At          time.Time
}

// Log is the durable copy of the events (the store implements it).
type Log interface {
	// LastSeq returns the highest stored seq of the session (0 if none).
	LastSeq(ctx context.Context, ws, sessionID int64) (int64, error)
	// Append stores events whose Seq the hub assigned, in order; a batch
	// mixes sessions. The hub retries the whole batch after an error, and
	// the error may come after part of it was stored, so Append must ignore
	// an event whose (workspace, session, seq) is already stored. An event
	// that can never be stored (its session was deleted) must be skipped,
	// not reported: an error would hold up every later event.
	Append(ctx context.Context, evs []Event) error
	// After returns up to limit events with Seq > after, ascending.
	After(ctx context.Context, ws, sessionID, after int64, limit int) ([]Event, error)
}

// Options configure a Hub. Zero (or negative) values take the defaults.
type Options struct {
	// Log is the durable copy; nil keeps events in memory only, so a
	// restart forgets them and numbering starts again at 1.
	Log Log
	// Retention is how long the ring keeps an event and how long an idle
	// session stays in memory (default 1h).
	Retention time.Duration
	// PerSession caps the events kept in memory per session (default 512).
	PerSession int
	// SubscriberBuffer is how many live events may wait for a subscriber
	// before it is dropped with ErrLagged (default 256).
	SubscriberBuffer int
	// FlushEvery is how often queued events are written to the Log
	// (default 50ms); a batch of 256 is written at once.
	FlushEvery time.Duration
	// MaxQueued bounds the events waiting for the Log (default 65536);
	// beyond it the oldest are dropped from the queue (never from the ring).
	MaxQueued int
	// KeepAlive is the interval of ServeSSE's keepalive comment (default 15s).
	KeepAlive time.Duration
	// Clock tells the time stamped on events and used for retention, and
	// paces the persister, the janitor and keepalives (default clock.Real).
	Clock clock.Clock
	// Logger receives the persister's warnings (default slog.Default()).
	Logger *slog.Logger
}

// The defaults of Options.
const (
	DefaultRetention        = time.Hour
	DefaultPerSession       = 512
	DefaultSubscriberBuffer = 256
	DefaultFlushEvery       = 50 * time.Millisecond
	DefaultMaxQueued        = 65536
	DefaultKeepAlive        = 15 * time.Second
)

// withDefaults fills the zero values. NewHub's signature has no error, so a
// nonsensical (negative) value takes the default rather than failing.
func (o Options) withDefaults() Options {
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.PerSession <= 0 {
		o.PerSession = DefaultPerSession
	}
	if o.SubscriberBuffer <= 0 {
		o.SubscriberBuffer = DefaultSubscriberBuffer
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = DefaultFlushEvery
	}
	if o.MaxQueued <= 0 {
		o.MaxQueued = DefaultMaxQueued
	}
	if o.KeepAlive <= 0 {
		o.KeepAlive = DefaultKeepAlive
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// ErrLagged ends a subscription whose buffer filled up: the subscriber is
// dropped rather than slowing the publisher, and should subscribe again
// after the last seq it received.
var ErrLagged = errors.New("events: subscriber lagged behind")

// ErrClosed is returned by a closed hub, and ends its subscriptions.
var ErrClosed = errors.New("events: hub closed")

// Stats are the hub's counters, for /metrics.
type Stats struct {
	Published   uint64 // events published
	Persisted   uint64 // events the Log acknowledged
	Dropped     uint64 // events dropped from a full Log queue (still served from memory)
	Lagged      uint64 // subscribers dropped for lagging
	Subscribers int64  // open subscriptions
	Sessions    int    // sessions held in memory
	Queued      int    // events waiting for the Log
}
