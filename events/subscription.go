package events

import (
	"context"
	"fmt"
	"sync"
)

// replayPage is how many events one Log.After call reads during a replay.
const replayPage = 256

// Subscription is one subscriber's ordered view of a session's events:
// first the replay of what it missed, then live events, each seq once.
type Subscription struct {
	// C delivers the events in seq order. It is closed when the
	// subscription's ctx ends, on Close, on the hub's Close, or when the
	// subscriber lags; Err then says why.
	C <-chan Event

	out    chan Event // C; unbuffered, the buffering is live's
	live   chan Event // filled by Publish under the session's lock
	hub    *Hub
	sess   *session
	parent context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu    sync.Mutex
	ended bool
	err   error
}

// replayPlan is what a new subscription must send before live events: the
// events after `after` up to `upTo`, of which `ring` holds the tail.
type replayPlan struct {
	after, upTo int64
	ring        []Event
}

// Subscribe returns the events of the session with Seq > afterSeq: those
// already published (from the ring, or from the Log when the ring no longer
// reaches back far enough), then live ones, with no gaps or duplicates even
// while events are being published.
func (h *Hub) Subscribe(ctx context.Context, ws, sessionID, afterSeq int64) (*Subscription, error) {
	if afterSeq < 0 {
		return nil, fmt.Errorf("subscribing to session %d: afterSeq %d is negative", sessionID, afterSeq)
	}
	s, err := h.lockedSession(ctx, sessionKey{ws, sessionID})
	if err != nil {
		return nil, fmt.Errorf("subscribing to session %d: %w", sessionID, err)
	}
	defer s.mu.Unlock()
	subCtx, cancel := context.WithCancel(ctx)
	out := make(chan Event)
	sub := &Subscription{
		C: out, out: out, live: make(chan Event, h.opts.SubscriberBuffer),
		hub: h, sess: s, parent: ctx, cancel: cancel, done: make(chan struct{}),
	}
	// A client ahead of the hub saw events the hub has lost (a restart
	// without a Log, or a crash before they were stored); everything it has
	// not seen is newer than what the hub holds, so it starts from there.
	afterSeq = min(afterSeq, s.lastSeq)
	// Registering and reading the ring under the same lock splits the stream
	// exactly: up to lastSeq comes from the replay, the rest through live.
	s.ring.expire(h.clock.Now().Add(-h.opts.Retention))
	plan := replayPlan{after: afterSeq, upTo: s.lastSeq, ring: s.ring.after(afterSeq)}
	s.subs[sub] = struct{}{}
	h.stats.subscribers.Add(1)
	h.subs.Go(func() { sub.run(subCtx, plan) }) // under s.mu, so Close waits for it
	return sub, nil
}

// Err returns why C was closed: ErrLagged, ErrClosed, the ctx's error, a
// replay error, or nil after Close (and while C is open).
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close ends the subscription and waits until C is closed.
func (s *Subscription) Close() {
	s.end(nil)
	<-s.done
}

// end records why the subscription ends (the first reason wins) and stops
// its goroutine. It reports whether this call ended it.
func (s *Subscription) end(err error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return false
	}
	s.ended, s.err = true, err
	s.cancel()
	return true
}

// run sends the replay then the live events until the subscription ends.
func (s *Subscription) run(ctx context.Context, plan replayPlan) {
	defer s.finish()
	last := plan.after
	send := func(ev Event) bool {
		if ev.Seq <= last { // already sent: the replay and live may overlap
			return true
		}
		select {
		case s.out <- ev:
			last = ev.Seq
			return true
		case <-ctx.Done():
			return false
		}
	}
	if err := s.replayLog(ctx, plan, send); err != nil {
		s.end(err)
		return
	}
	for _, ev := range plan.ring {
		if !send(ev) {
			return
		}
	}
	for {
		select {
		case ev := <-s.live:
			if !send(ev) {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// replayLog sends the events between plan.after and the ring's first event
// from the Log. Events that left the ring may still wait in the persister's
// queue, so they are flushed first.
func (s *Subscription) replayLog(ctx context.Context, plan replayPlan, send func(Event) bool) error {
	first := plan.upTo + 1
	if len(plan.ring) > 0 {
		first = plan.ring[0].Seq
	}
	log := s.hub.opts.Log
	if log == nil || plan.after >= first-1 {
		return nil
	}
	key := s.sess.key
	if s.sess.persisted.Load() < first-1 {
		if err := s.hub.Flush(ctx); err != nil {
			return fmt.Errorf("replaying session %d: %w", key.id, err)
		}
	}
	for cursor := plan.after; cursor < first-1; {
		evs, err := log.After(ctx, key.ws, key.id, cursor, replayPage)
		if err != nil {
			return fmt.Errorf("replaying session %d after seq %d: %w", key.id, cursor, err)
		}
		from := cursor
		for _, ev := range evs {
			if ev.Seq >= first {
				return nil
			}
			if ev.Seq > cursor {
				if !send(ev) {
					return nil
				}
				cursor = ev.Seq
			}
		}
		if len(evs) < replayPage || cursor == from {
			return nil // the Log has no more (events dropped before storing leave a gap)
		}
	}
	return nil
}

// finish unregisters the subscription and closes C; Err is set by then.
func (s *Subscription) finish() {
	s.end(s.parent.Err()) // no-op unless only the caller's ctx ended it
	s.sess.mu.Lock()
	delete(s.sess.subs, s)
	s.sess.mu.Unlock()
	s.hub.stats.subscribers.Add(-1)
	close(s.out)
	close(s.done)
}
