package events

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
)

// fakeLog is an in-memory Log that can be told to fail, and counts calls.
type fakeLog struct {
	mu          sync.Mutex
	bySession   map[sessionKey][]Event
	appended    []Event // every stored event, in Append order
	appendCalls int
	failAppends int  // the next n Append calls fail without storing
	failAlways  bool // every Append fails
	lastSeqErrs int  // the next n LastSeq calls fail
	lastSeqs    map[sessionKey]int
	afterCalls  int
	afterErrs   int // the next n After calls fail
}

var errLogDown = errors.New("log is down")

func newFakeLog() *fakeLog {
	return &fakeLog{bySession: map[sessionKey][]Event{}, lastSeqs: map[sessionKey]int{}}
}

func (l *fakeLog) LastSeq(_ context.Context, ws, id int64) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := sessionKey{ws, id}
	l.lastSeqs[k]++
	if l.lastSeqErrs > 0 {
		l.lastSeqErrs--
		return 0, errLogDown
	}
	evs := l.bySession[k]
	if len(evs) == 0 {
		return 0, nil
	}
	return evs[len(evs)-1].Seq, nil
}

func (l *fakeLog) Append(_ context.Context, evs []Event) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.appendCalls++
	if l.failAlways || l.failAppends > 0 {
		l.failAppends--
		return errLogDown
	}
	for _, ev := range evs {
		k := sessionKey{ev.WorkspaceID, ev.SessionID}
		if s := l.bySession[k]; len(s) > 0 && s[len(s)-1].Seq >= ev.Seq {
			continue // idempotent, as the contract asks
		}
		l.bySession[k] = append(l.bySession[k], ev)
		l.appended = append(l.appended, ev)
	}
	return nil
}

func (l *fakeLog) After(_ context.Context, ws, id, after int64, limit int) ([]Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.afterCalls++
	if l.afterErrs > 0 {
		l.afterErrs--
		return nil, errLogDown
	}
	var out []Event
	for _, ev := range l.bySession[sessionKey{ws, id}] {
		if ev.Seq > after && len(out) < limit {
			out = append(out, ev)
		}
	}
	return out, nil
}

// seqs returns the stored seqs of a session.
func (l *fakeLog) seqs(ws, id int64) []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return seqsOf(l.bySession[sessionKey{ws, id}])
}

func (l *fakeLog) set(f func(l *fakeLog)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f(l)
}

func seqsOf(evs []Event) []int64 {
	out := make([]int64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Seq
	}
	return out
}

// seqRange returns from, from+1, …, to.
func seqRange(from, to int64) []int64 {
	var out []int64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

var t0 = time.Date(2026, 11, 3, 9, 30, 0, 0, time.UTC)

// newHub returns a hub with a quiet logger, closed when the test ends.
func newHub(t *testing.T, opts Options) *Hub {
	t.Helper()
	opts.Logger = slog.New(slog.DiscardHandler)
	h := NewHub(opts)
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return h
}

// publish publishes n Message events and returns the last one.
func publish(t *testing.T, h *Hub, ws, id int64, n int) Event {
	t.Helper()
	var ev Event
	for range n {
		var err error
		if ev, err = h.Publish(context.Background(), ws, id, "Message", map[string]string{"text": "hi"}); err != nil {
			t.Fatalf("publish to ws %d session %d: %v", ws, id, err)
		}
	}
	return ev
}

// recv reads n events from sub, failing after a generous deadline.
func recv(t *testing.T, sub *Subscription, n int) []Event {
	t.Helper()
	timeout := time.After(5 * time.Second)
	var out []Event
	for len(out) < n {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				t.Fatalf("C closed after %d of %d events: %v", len(out), n, sub.Err())
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatalf("got %d of %d events before the deadline", len(out), n)
		}
	}
	return out
}

// waitClosed waits until C is closed, returning the events still delivered.
func waitClosed(t *testing.T, sub *Subscription) []Event {
	t.Helper()
	timeout := time.After(5 * time.Second)
	var out []Event
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatal("C was not closed")
		}
	}
}

// idle waits until the hub's background loops all wait on clk: the
// janitor, and the persister when the hub has a Log. Each re-arms its
// timer after a pass, so idle after an Advance waits for the passes it
// started to finish.
func idle(t *testing.T, h *Hub, clk *clock.Fake) {
	t.Helper()
	loops := 1
	if h.persist != nil {
		loops++
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clk.BlockUntil(ctx, loops); err != nil {
		t.Fatalf("the hub's loops are not waiting on the clock: %v", err)
	}
}

// advance moves clk by d once the hub's loops wait on it, and returns when
// what it woke is done.
func advance(t *testing.T, h *Hub, clk *clock.Fake, d time.Duration) {
	t.Helper()
	idle(t, h, clk)
	clk.Advance(d)
	idle(t, h, clk)
}

// eventually polls cond until it holds, failing after a deadline.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
