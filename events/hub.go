package events

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wetel/wetel/clock"
)

// Hub numbers, keeps, fans out and persists the events of every session.
// It is safe for concurrent use.
type Hub struct {
	opts   Options
	clock  clock.Clock
	logger *slog.Logger

	mu       sync.Mutex // guards sessions; taken before a session's mu
	sessions map[sessionKey]*session
	closed   atomic.Bool // set under mu, read under a session's mu

	persist *persister // nil without a Log
	stats   counters
	stopBG  context.CancelFunc
	bg      sync.WaitGroup // persister and janitor
	subs    sync.WaitGroup // subscription goroutines
}

// sessionKey keys everything by workspace too, so ws 2 can never see the
// events of ws 1's session with the same id (multi-workspace safety).
type sessionKey struct{ ws, id int64 }

// session is one session's state. mu serialises Publish and Subscribe of the
// session, which is what makes seqs gap-free and replay exact.
type session struct {
	key     sessionKey
	mu      sync.Mutex
	seeded  bool // lastSeq was read from the Log
	evicted bool // removed from the hub; look it up again
	lastSeq int64
	lastAt  time.Time // last publish (or creation), for idle eviction
	ring    ring
	subs    map[*Subscription]struct{}

	pending   atomic.Int64 // events in the persister's queue
	persisted atomic.Int64 // highest seq the Log acknowledged
}

type counters struct {
	published, persisted, dropped, lagged atomic.Uint64
	subscribers                           atomic.Int64
}

// NewHub starts a hub: its persister (when opts.Log is set) and the janitor
// that evicts idle sessions. Stop it with Close.
func NewHub(opts Options) *Hub {
	opts = opts.withDefaults()
	h := &Hub{
		opts:     opts,
		clock:    opts.Clock,
		logger:   opts.Logger,
		sessions: make(map[sessionKey]*session),
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.stopBG = cancel
	if opts.Log != nil {
		h.persist = newPersister(opts, &h.stats)
		h.bg.Go(func() { h.persist.run(ctx) })
	}
	h.bg.Go(func() { h.janitor(ctx) })
	return h
}

// Publish numbers an event of the session and hands it to the ring, the
// subscribers and the persister. It never waits for a subscriber or for the
// Log; the only Log call is LastSeq, once per session, to continue the
// numbering a previous process left.
func (h *Hub) Publish(ctx context.Context, ws, sessionID int64, typ string, payload any) (Event, error) {
	// An SSE "event:" line cannot carry a line break.
	if typ == "" || strings.ContainsAny(typ, "\r\n") {
		return Event{}, fmt.Errorf("publishing to session %d: event type %q must be non-empty and on one line", sessionID, typ)
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return Event{}, fmt.Errorf("publishing %s to session %d: encoding payload: %w", typ, sessionID, err)
	}
	s, err := h.lockedSession(ctx, sessionKey{ws, sessionID})
	if err != nil {
		return Event{}, fmt.Errorf("publishing %s to session %d: %w", typ, sessionID, err)
	}
	defer s.mu.Unlock()
	now := h.clock.Now()
	s.lastSeq++
	s.lastAt = now
	ev := Event{WorkspaceID: ws, SessionID: sessionID, Seq: s.lastSeq, Type: typ, Payload: data, At: now}
	s.ring.expire(now.Add(-h.opts.Retention))
	s.ring.push(ev)
	h.stats.published.Add(1)
	for sub := range s.subs {
		select {
		case sub.live <- ev:
		default:
			// A slow subscriber never slows a run: drop it; it resumes
			// from its last seq through the ring or the Log.
			delete(s.subs, sub)
			if sub.end(ErrLagged) {
				h.stats.lagged.Add(1)
			}
		}
	}
	if h.persist != nil {
		// Enqueued under s.mu so the queue holds a session's events in seq order.
		s.pending.Add(1)
		h.persist.enqueue(ctx, queued{ev: ev, sess: s})
	}
	return ev, nil
}

// lockedSession returns the session, locked and seeded.
func (h *Hub) lockedSession(ctx context.Context, key sessionKey) (*session, error) {
	for {
		s, err := h.lookup(key)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		if s.evicted { // the janitor won the race; use the new incarnation
			s.mu.Unlock()
			continue
		}
		if h.closed.Load() {
			s.mu.Unlock()
			return nil, ErrClosed
		}
		if !s.seeded {
			if err := h.seed(ctx, s); err != nil {
				s.mu.Unlock()
				return nil, err
			}
		}
		return s, nil
	}
}

func (h *Hub) lookup(key sessionKey) (*session, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed.Load() {
		return nil, ErrClosed
	}
	s := h.sessions[key]
	if s == nil {
		s = &session{key: key, lastAt: h.clock.Now(), ring: ring{max: h.opts.PerSession}, subs: map[*Subscription]struct{}{}}
		h.sessions[key] = s
	}
	return s, nil
}

// seed continues the numbering from the Log. It runs under s.mu, so only
// this session waits for the read; a failed read is retried next time.
func (h *Hub) seed(ctx context.Context, s *session) error {
	if h.opts.Log != nil {
		last, err := h.opts.Log.LastSeq(ctx, s.key.ws, s.key.id)
		if err != nil {
			return fmt.Errorf("reading the last seq: %w", err)
		}
		s.lastSeq = last
		s.persisted.Store(last)
	}
	s.seeded = true
	return nil
}

// Flush writes the queued events to the Log now (graceful shutdown). On an
// error the unwritten events stay queued for the background persister.
func (h *Hub) Flush(ctx context.Context) error {
	if h.persist == nil {
		return nil
	}
	if err := h.persist.drain(ctx); err != nil {
		return fmt.Errorf("flushing events: %w", err)
	}
	return nil
}

// Close stops the hub: later Publish and Subscribe calls fail with
// ErrClosed, open subscriptions end with ErrClosed, and the queued events
// are written to the Log. It is safe to call more than once.
func (h *Hub) Close(ctx context.Context) error {
	h.mu.Lock()
	if h.closed.Load() {
		h.mu.Unlock()
		return nil
	}
	h.closed.Store(true)
	sessions := slices.Collect(maps.Values(h.sessions))
	h.mu.Unlock()
	// Taking each session's lock is also a barrier: a Publish that got in
	// before closed was set has enqueued its event before the flush below.
	for _, s := range sessions {
		s.mu.Lock()
		for sub := range s.subs {
			delete(s.subs, sub)
			sub.end(ErrClosed)
		}
		s.mu.Unlock()
	}
	h.stopBG()
	err := waitCtx(ctx, &h.bg)
	if ferr := h.Flush(ctx); err == nil {
		err = ferr
	}
	if werr := waitCtx(ctx, &h.subs); err == nil {
		err = werr
	}
	return err
}

// Stats returns the hub's counters.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	n := len(h.sessions)
	h.mu.Unlock()
	st := Stats{
		Published:   h.stats.published.Load(),
		Persisted:   h.stats.persisted.Load(),
		Dropped:     h.stats.dropped.Load(),
		Lagged:      h.stats.lagged.Load(),
		Subscribers: h.stats.subscribers.Load(),
		Sessions:    n,
	}
	if h.persist != nil {
		st.Queued = h.persist.queued()
	}
	return st
}

// waitCtx waits for wg, giving up when ctx ends.
func waitCtx(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("closing the event hub: %w", ctx.Err())
	}
}
