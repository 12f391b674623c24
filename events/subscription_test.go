package events

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSubscribeReplaysThenGoesLive(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	publish(t, h, 1, 5, 5)
	sub, err := h.Subscribe(context.Background(), 1, 5, 2)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	defer sub.Close()
	if diff := cmp.Diff(seqRange(3, 5), seqsOf(recv(t, sub, 3))); diff != "" {
		t.Errorf("replay (-want +got):\n%s", diff)
	}
	publish(t, h, 1, 5, 2)
	if diff := cmp.Diff(seqRange(6, 7), seqsOf(recv(t, sub, 2))); diff != "" {
		t.Errorf("live (-want +got):\n%s", diff)
	}
}

// Subscribing while a publisher runs must neither skip nor repeat a seq,
// whether the replay comes from the ring or (small ring) from the Log.
func TestSubscribeWhilePublishingHasNoGapsOrDuplicates(t *testing.T) {
	t.Parallel()
	const total = 300
	for round := range 20 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			t.Parallel()
			opts := Options{SubscriberBuffer: 2 * total}
			if round%2 == 1 {
				opts.Log, opts.PerSession = newFakeLog(), 16
			}
			h := newHub(t, opts)
			publish(t, h, 1, 5, round) // some history before the publisher starts
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range total - round {
					if _, err := h.Publish(context.Background(), 1, 5, "Message", nil); err != nil {
						t.Errorf("publish: %v", err)
						return
					}
				}
			}()
			after := int64(round / 2) // within the history: a client never saw more
			sub, err := h.Subscribe(context.Background(), 1, 5, after)
			if err != nil {
				t.Fatalf("subscribe: %v", err)
			}
			defer sub.Close()
			<-done
			got := seqsOf(recv(t, sub, total-int(after)))
			if diff := cmp.Diff(seqRange(after+1, total), got); diff != "" {
				t.Errorf("seqs after %d (-want +got):\n%s", after, diff)
			}
		})
	}
}

func TestSubscribeReplaysFromTheLogWhenTheRingIsShort(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	// FlushEvery is long so events 3..6 are still queued, not yet in the
	// Log, when they leave the ring: the replay must flush them first.
	h := newHub(t, Options{Log: log, PerSession: 4, FlushEvery: 1 << 40})
	publish(t, h, 1, 5, 10)
	sub, err := h.Subscribe(context.Background(), 1, 5, 2)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	defer sub.Close()
	if diff := cmp.Diff(seqRange(3, 10), seqsOf(recv(t, sub, 8))); diff != "" {
		t.Errorf("replay (-want +got):\n%s", diff)
	}
	publish(t, h, 1, 5, 1)
	if got := recv(t, sub, 1)[0].Seq; got != 11 {
		t.Errorf("live seq = %d, want 11", got)
	}
	log.set(func(l *fakeLog) {
		if l.afterCalls == 0 {
			t.Error("the Log was not read for the events the ring lost")
		}
	})
}

func TestSubscribeEndsWhenTheLogCannotReplay(t *testing.T) {
	t.Parallel()
	log := newFakeLog()
	h := newHub(t, Options{Log: log, PerSession: 2})
	publish(t, h, 1, 5, 5)
	log.set(func(l *fakeLog) { l.afterErrs = 1 })
	sub, err := h.Subscribe(context.Background(), 1, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	// Sending the ring's tail without 1..3 would be a silent gap.
	if got := waitClosed(t, sub); len(got) != 0 || !errors.Is(sub.Err(), errLogDown) {
		t.Errorf("got %v and err %v; want nothing and errLogDown", seqsOf(got), sub.Err())
	}
}

func TestSubscribeAheadOfTheHubGetsWhatComesNext(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{}) // memory only: a "restart" forgot seqs 1..9
	sub, err := h.Subscribe(context.Background(), 1, 5, 9)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	defer sub.Close()
	publish(t, h, 1, 5, 2)
	if diff := cmp.Diff(seqRange(1, 2), seqsOf(recv(t, sub, 2))); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
}

func TestStuckSubscriberIsDroppedAndNeverBlocksThePublisher(t *testing.T) {
	t.Parallel()
	const buffer = 8
	h := newHub(t, Options{SubscriberBuffer: buffer})
	stuck, err := h.Subscribe(context.Background(), 1, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	publish(t, h, 1, 5, 10_000) // would deadlock if a send blocked
	if !errors.Is(stuck.Err(), ErrLagged) {
		t.Fatalf("err = %v, want ErrLagged", stuck.Err())
	}
	if got := waitClosed(t, stuck); len(got) > buffer+1 {
		t.Errorf("a dropped subscriber still got %d events, want at most %d", len(got), buffer+1)
	}
	st := h.Stats()
	if st.Published != 10_000 || st.Lagged != 1 || st.Subscribers != 0 {
		t.Errorf("stats = %+v, want 10000 published, 1 lagged, 0 subscribers", st)
	}
	// It comes back after its last seq and is replayed from the ring.
	again, err := h.Subscribe(context.Background(), 1, 5, 9_990)
	if err != nil {
		t.Fatalf("resubscribe: %v", err)
	}
	defer again.Close()
	if diff := cmp.Diff(seqRange(9_991, 10_000), seqsOf(recv(t, again, 10))); diff != "" {
		t.Errorf("resumed (-want +got):\n%s", diff)
	}
}

func TestSubscriptionEnds(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	closed, err := h.Subscribe(context.Background(), 1, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	closed.Close()
	if _, ok := <-closed.C; ok || closed.Err() != nil {
		t.Errorf("after Close: C open = %v, err = %v; want closed, nil", ok, closed.Err())
	}
	ctx, cancel := context.WithCancel(context.Background())
	canceled, err := h.Subscribe(ctx, 1, 5, 0)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	cancel()
	waitClosed(t, canceled)
	if !errors.Is(canceled.Err(), context.Canceled) {
		t.Errorf("after the ctx ended: err = %v, want context.Canceled", canceled.Err())
	}
	if _, err := h.Subscribe(context.Background(), 1, 5, -1); err == nil {
		t.Error("a negative afterSeq was accepted")
	}
	eventually(t, "no subscriber is left", func() bool { return h.Stats().Subscribers == 0 })
}
