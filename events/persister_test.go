package events

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/wetel/wetel/clock"
)

func TestPersisterWritesEventsInPublishOrder(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(t0)
	log := newFakeLog()
	h := newHub(t, Options{Log: log, Clock: clk, FlushEvery: time.Second})
	var want []Event
	for range 100 { // 300 events: more than one batch
		for _, id := range []int64{5, 6, 7} {
			want = append(want, publish(t, h, 1, id, 1))
		}
	}
	advance(t, h, clk, time.Second)
	if n := h.Stats().Persisted; n != 300 {
		t.Fatalf("one flush later %d events are stored, want 300", n)
	}
	log.set(func(l *fakeLog) {
		if diff := cmp.Diff(want, l.appended); diff != "" {
			t.Errorf("stored events (-want +got):\n%s", diff)
		}
	})
}

func TestPersisterBacksOffWhileTheLogFails(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(t0)
	log := newFakeLog()
	log.failAppends = 2
	h := newHub(t, Options{Log: log, Clock: clk, FlushEvery: time.Second})
	publish(t, h, 1, 5, 10)
	calls := func() (n int) {
		log.set(func(l *fakeLog) { n = l.appendCalls })
		return n
	}
	// A flush, then a retry 2 s and another 4 s later: each wait doubles.
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		advance(t, h, clk, wait-time.Millisecond)
		if got := calls(); got != i {
			t.Fatalf("%v after the previous write: %d Append calls, want %d", wait-time.Millisecond, got, i)
		}
		advance(t, h, clk, time.Millisecond)
		if got := calls(); got != i+1 {
			t.Fatalf("%v after the previous write: %d Append calls, want %d", wait, got, i+1)
		}
	}
	if n := h.Stats().Persisted; n != 10 {
		t.Fatalf("after the Log recovered %d events are stored, want 10", n)
	}
	if diff := cmp.Diff(seqRange(1, 10), log.seqs(1, 5)); diff != "" {
		t.Errorf("stored seqs (-want +got):\n%s", diff)
	}
	log.set(func(l *fakeLog) {
		if len(l.appended) != 10 {
			t.Errorf("%d events stored, want each of 10 once", len(l.appended))
		}
	})
}

func TestFlushWritesNowAndKeepsEventsOnError(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	h := newHub(t, Options{Log: log, FlushEvery: 1 << 40}) // never on its own
	publish(t, h, 1, 5, 3)
	if got := log.seqs(1, 5); len(got) != 0 {
		t.Fatalf("stored before Flush: %v", got)
	}
	log.set(func(l *fakeLog) { l.failAppends = 1 })
	if err := h.Flush(context.Background()); !errors.Is(err, errLogDown) {
		t.Fatalf("flush with the Log down: err = %v, want errLogDown", err)
	}
	publish(t, h, 1, 5, 1)
	if err := h.Flush(context.Background()); err != nil {
		t.Fatalf("flush: %v", err)
	}
	if diff := cmp.Diff(seqRange(1, 4), log.seqs(1, 5)); diff != "" {
		t.Errorf("stored seqs (-want +got):\n%s", diff)
	}
	if st := h.Stats(); st.Queued != 0 || st.Persisted != 4 {
		t.Errorf("stats = %+v, want nothing queued and 4 persisted", st)
	}
}

func TestCloseWritesQueuedEvents(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	h := newHub(t, Options{Log: log, FlushEvery: 1 << 40})
	publish(t, h, 1, 5, 3)
	if err := h.Close(context.Background()); err != nil {
		t.Fatalf("close: %v", err)
	}
	if diff := cmp.Diff(seqRange(1, 3), log.seqs(1, 5)); diff != "" {
		t.Errorf("stored seqs (-want +got):\n%s", diff)
	}
}

func TestFullQueueDropsTheOldestForDurabilityOnly(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	log.failAlways = true
	h := newHub(t, Options{Log: log, MaxQueued: 4, FlushEvery: 1 << 40})
	publish(t, h, 1, 5, 10) // must not block on the full queue
	if st := h.Stats(); st.Dropped != 6 || st.Queued != 4 {
		t.Errorf("stats = %+v, want 6 dropped, 4 queued", st)
	}
	sub, err := h.Subscribe(context.Background(), 1, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	defer sub.Close()
	if diff := cmp.Diff(seqRange(1, 10), seqsOf(recv(t, sub, 10))); diff != "" {
		t.Errorf("served from memory (-want +got):\n%s", diff)
	}
	log.set(func(l *fakeLog) { l.failAlways = false })
	if err := h.Flush(context.Background()); err != nil {
		t.Fatalf("flush: %v", err)
	}
	if diff := cmp.Diff(seqRange(7, 10), log.seqs(1, 5)); diff != "" {
		t.Errorf("stored seqs (-want +got):\n%s", diff)
	}
}
