package events

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/wetel/wetel/clock"
)

func TestRingKeepsTheRecentConsecutiveEvents(t *testing.T) {
	t.Parallel()
	r := ring{max: 4}
	for seq := range int64(10) {
		r.push(Event{Seq: seq + 1, At: t0.Add(time.Duration(seq) * time.Minute)})
	}
	tests := []struct {
		after int64
		want  []int64
	}{
		{0, seqRange(7, 10)}, // the ring no longer reaches back to 1
		{7, seqRange(8, 10)},
		{10, nil},
		{12, nil},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, seqsOf(r.after(tc.after)), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("after(%d) (-want +got):\n%s", tc.after, diff)
		}
	}
	r.expire(t0.Add(8 * time.Minute)) // seqs 7 and 8 are older
	if r.firstSeq() != 9 || r.n != 2 {
		t.Errorf("after expiry: first seq %d, %d events; want 9, 2", r.firstSeq(), r.n)
	}
	r.expire(t0.Add(time.Hour))
	if r.n != 0 || r.buf != nil {
		t.Errorf("an expired ring keeps %d events and a buffer of %d", r.n, len(r.buf))
	}
}

func TestRetentionReplaysExpiredEventsFromTheLog(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(t0)
	log := newFakeLog()
	h := newHub(t, Options{Log: log, Clock: clk, FlushEvery: time.Millisecond})
	publish(t, h, 1, 5, 3)
	advance(t, h, clk, 40*time.Minute)
	publish(t, h, 1, 5, 2)
	advance(t, h, clk, 30*time.Minute) // seqs 1..3 are now older than the hour: the janitor expires them
	if first := h.firstSeq(1, 5); first != 4 {
		t.Fatalf("after the sweep the ring starts at seq %d, want 4", first)
	}
	sub, err := h.Subscribe(context.Background(), 1, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	defer sub.Close()
	if diff := cmp.Diff(seqRange(1, 5), seqsOf(recv(t, sub, 5))); diff != "" {
		t.Errorf("replay (-want +got):\n%s", diff)
	}
}

func TestJanitorEvictsIdleSessions(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(t0)
	log := newFakeLog()
	h := newHub(t, Options{Log: log, Clock: clk, FlushEvery: time.Millisecond})
	publish(t, h, 1, 5, 2) // goes idle
	watched, err := h.Subscribe(context.Background(), 1, 7, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	advance(t, h, clk, 30*time.Minute)
	publish(t, h, 1, 6, 1) // still recent at the sweep
	advance(t, h, clk, 31*time.Minute)
	if n := h.Stats().Persisted; n != 3 {
		t.Fatalf("%d events are stored, want 3", n)
	}
	// The janitor's sweep may have run before the persister's write, when
	// session 5 still had unstored events; this one runs after both.
	h.sweep()
	if n := h.Stats().Sessions; n != 2 {
		t.Errorf("after the sweep %d sessions are in memory, want 2 (recent and watched)", n)
	}
	watched.Close()
	advance(t, h, clk, time.Hour) // the janitor evicts what is idle now
	if n := h.Stats().Sessions; n != 0 {
		t.Errorf("after everything went idle %d sessions are in memory, want 0", n)
	}
	if ev := publish(t, h, 1, 5, 1); ev.Seq != 3 {
		t.Errorf("an evicted session continues at seq %d, want 3 (from the Log)", ev.Seq)
	}
}

func TestJanitorKeepsSessionsWithUnstoredEvents(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(t0)
	log := newFakeLog()
	log.failAlways = true
	h := newHub(t, Options{Log: log, Clock: clk, FlushEvery: 1 << 40})
	publish(t, h, 1, 5, 1)
	advance(t, h, clk, 2*time.Hour) // the janitor sweeps; the persister's write fails
	if n := h.Stats().Sessions; n != 1 {
		t.Fatalf("a session with an unstored event was evicted (%d in memory)", n)
	}
	log.set(func(l *fakeLog) { l.failAlways = false })
	if err := h.Flush(context.Background()); err != nil {
		t.Fatalf("flush: %v", err)
	}
	h.sweep()
	if n := h.Stats().Sessions; n != 0 {
		t.Errorf("a stored idle session is still in memory (%d)", n)
	}
	if ev := publish(t, h, 1, 5, 1); ev.Seq != 2 {
		t.Errorf("seq after eviction = %d, want 2", ev.Seq)
	}
}

// firstSeq returns the oldest seq in a session's ring, for inspection.
func (h *Hub) firstSeq(ws, id int64) int64 {
	h.mu.Lock()
	s := h.sessions[sessionKey{ws, id}]
	h.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ring.firstSeq()
}
