package events

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPersisterWritesEventsInPublishOrder(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	h := newHub(t, Options{Log: log, FlushEvery: time.Millisecond})
	var want []Event
	for range 100 { // 300 events: more than one batch
		for _, id := range []int64{5, 6, 7} {
			want = append(want, publish(t, h, 1, id, 1))
		}
	}
	eventually(t, "all 300 events are stored", func() bool { return h.Stats().Persisted == 300 })
	log.set(func(l *fakeLog) {
		if diff := cmp.Diff(want, l.appended); diff != "" {
			t.Errorf("stored events (-want +got):\n%s", diff)
		}
	})
}

func TestPersisterRetriesAFailingLog(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	log.failAppends = 2
	h := newHub(t, Options{Log: log, FlushEvery: time.Millisecond})
	publish(t, h, 1, 5, 10)
	eventually(t, "the events are stored", func() bool { return h.Stats().Persisted == 10 })
	if diff := cmp.Diff(seqRange(1, 10), log.seqs(1, 5)); diff != "" {
		t.Errorf("stored seqs (-want +got):\n%s", diff)
	}
	log.set(func(l *fakeLog) {
		if l.appendCalls < 3 || len(l.appended) != 10 {
			t.Errorf("%d Append calls stored %d events; want ≥3 calls storing each of 10 once", l.appendCalls, len(l.appended))
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

func TestBackoffDoublesUpToTheCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		failures int
		want     time.Duration
	}{
		{1, 100 * time.Millisecond},
		{2, 200 * time.Millisecond},
		{5, 1600 * time.Millisecond},
		{10, maxBackoff},
		{1000, maxBackoff},
	}
	for _, tc := range tests {
		if got := backoff(50*time.Millisecond, tc.failures); got != tc.want {
			t.Errorf("backoff after %d failures = %v, want %v", tc.failures, got, tc.want)
		}
	}
}
