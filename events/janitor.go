package events

import (
	"context"
	"time"
)

// janitorEvery is how often the janitor sweeps: often enough that an idle
// session outlives Retention by little, rarely enough to cost nothing.
func janitorEvery(retention time.Duration) time.Duration {
	return max(min(retention/2, time.Minute), time.Second)
}

// janitor sweeps until ctx ends, so memory stays bounded with many sessions.
func (h *Hub) janitor(ctx context.Context) {
	t := h.clock.NewTimer(janitorEvery(h.opts.Retention))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
			h.sweep()
		}
		// Re-armed after the sweep, not ticking through it: a test on a
		// fake clock sees the sweep is over when the timer is armed again.
		t.Reset(janitorEvery(h.opts.Retention))
	}
}

// sweep drops the ring events older than Retention and evicts the sessions
// that are idle: no event for Retention, no subscriber, and nothing waiting
// for the Log. The last condition matters: a session evicted with queued
// events would, when it comes back, be seeded from a LastSeq that misses
// them, and number new events with seqs already in use.
func (h *Hub) sweep() {
	cutoff := h.clock.Now().Add(-h.opts.Retention)
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, s := range h.sessions {
		// A session whose lock is held is busy (publishing, subscribing or
		// seeding from the Log), so not idle; waiting would stall the hub.
		if !s.mu.TryLock() {
			continue
		}
		s.ring.expire(cutoff)
		if len(s.subs) == 0 && s.pending.Load() == 0 && s.lastAt.Before(cutoff) {
			s.evicted = true
			delete(h.sessions, key)
		}
		s.mu.Unlock()
	}
}
