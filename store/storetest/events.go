package storetest

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// events makes n events of type typ.
func events(typ string, n int) []store.Event {
	out := make([]store.Event, n)
	for i := range out {
		out[i] = store.Event{Type: typ, Payload: json.RawMessage(fmt.Sprintf(`{"i": %d}`, i))}
	}
	return out
}

// testEvents appends batches to a session's log and replays them.
func testEvents(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess, other := tn.session(t, ""), tn.session(t, "")
	if last, err := s.LastEventSeq(ctx, tn.ws, sess.ID); err != nil || last != 0 {
		t.Errorf("LastEventSeq before any event = %d, %v", last, err)
	}
	at := now().Add(-time.Minute)
	first := []store.Event{
		{Type: "RunStarted", CreatedAt: at},
		{Type: "Message", Payload: json.RawMessage(`{"text": "héllo \"there\"", "isFinal": true}`)},
	}
	got, err := s.AppendEvents(ctx, tn.ws, sess.ID, first)
	must(t, err)
	if len(got) != 2 || got[0].Seq != 1 || got[1].Seq != 2 || got[0].SessionID != sess.ID ||
		got[1].WorkspaceID != tn.ws || !sameTime(at, got[0].CreatedAt) || got[1].CreatedAt.IsZero() ||
		got[0].Payload != nil || string(got[1].Payload) != string(first[1].Payload) {
		t.Errorf("AppendEvents = %s", str(got))
	}
	more, err := s.AppendEvents(ctx, tn.ws, sess.ID, events("NodeExecuting", 5))
	must(t, err)
	if len(more) != 5 || more[0].Seq != 3 || more[4].Seq != 7 {
		t.Errorf("second batch numbered %s", str(more))
	}
	elsewhere, err := s.AppendEvents(ctx, tn.ws, other.ID, events("TurnComplete", 1))
	must(t, err)
	if len(elsewhere) != 1 || elsewhere[0].Seq != 1 {
		t.Errorf("another session's first event = %s, want seq 1", str(elsewhere))
	}

	all, err := s.EventsAfter(ctx, tn.ws, sess.ID, 0, 0)
	must(t, err)
	want := append(append([]store.Event{}, got...), more...)
	if str(all) != str(want) {
		t.Errorf("EventsAfter(0) = %s\nwant %s", str(all), str(want))
	}
	page, err := s.EventsAfter(ctx, tn.ws, sess.ID, 2, 3)
	must(t, err)
	if str(page) != str(want[2:5]) {
		t.Errorf("EventsAfter(2, limit 3) = %s, want %s", str(page), str(want[2:5]))
	}
	tail, err := s.EventsAfter(ctx, tn.ws, sess.ID, 7, 0)
	must(t, err)
	if len(tail) != 0 {
		t.Errorf("EventsAfter(last) = %s", str(tail))
	}
	empty, err := s.AppendEvents(ctx, tn.ws, sess.ID, nil)
	if err != nil || len(empty) != 0 {
		t.Errorf("appending nothing = %s, %v", str(empty), err)
	}
	for _, limit := range []int{-1, store.MaxEventLimit + 1} {
		_, err = s.EventsAfter(ctx, tn.ws, sess.ID, 0, limit)
		wantErr(t, "EventsAfter with limit out of range", err, store.ErrInvalid)
	}
	_, err = s.AppendEvents(ctx, tn.ws, sess.ID, []store.Event{{Type: "ok"}, {}})
	wantErr(t, "an event without a type", err, store.ErrInvalid)
	_, err = s.AppendEvents(ctx, tn.ws, sess.ID, []store.Event{{Type: "x", SessionID: other.ID}})
	wantErr(t, "an event naming another session", err, store.ErrNotFound)
	_, err = s.AppendEvents(ctx, tn.ws, sess.ID+1_000_000, events("x", 1))
	wantErr(t, "appending to an unknown session", err, store.ErrNotFound)
	after, err := s.EventsAfter(ctx, tn.ws, sess.ID, 0, 0)
	must(t, err)
	if len(after) != 7 {
		t.Errorf("refused appends left %d events, want 7", len(after))
	}
	for _, c := range []struct {
		session, want int64
	}{{sess.ID, 7}, {other.ID, 1}} {
		if last, err := s.LastEventSeq(ctx, tn.ws, c.session); err != nil || last != c.want {
			t.Errorf("LastEventSeq(%d) = %d, %v, want %d", c.session, last, err, c.want)
		}
	}
	_, err = s.LastEventSeq(ctx, tn.ws, sess.ID+1_000_000)
	wantErr(t, "LastEventSeq of an unknown session", err, store.ErrNotFound)
}

// testEventsConcurrent appends to one session from many goroutines at once:
// the numbers are 1..n, none shared, none skipped.
func testEventsConcurrent(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	const workers, batches, size = 8, 10, 3
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range batches {
				got, err := s.AppendEvents(ctx, tn.ws, sess.ID, events(fmt.Sprint("w", w), size))
				if err != nil {
					t.Error(err)
					return
				}
				for i := 1; i < len(got); i++ {
					if got[i].Seq != got[i-1].Seq+1 {
						t.Errorf("a batch was numbered %d then %d", got[i-1].Seq, got[i].Seq)
					}
				}
			}
		}()
	}
	wg.Wait()
	all, err := s.EventsAfter(ctx, tn.ws, sess.ID, 0, store.MaxEventLimit)
	must(t, err)
	if len(all) != workers*batches*size {
		t.Fatalf("%d events, want %d", len(all), workers*batches*size)
	}
	for i, ev := range all {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
	}
}

// testPruneEvents prunes old events of every workspace (a store of its
// own): newer ones stay, and numbering goes on after a pruned session's
// last number.
func testPruneEvents(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.fresh(t)
	a, b := newTenant(t, s), newTenant(t, s)
	sa, sb := a.session(t, ""), b.session(t, "")
	old := now().Add(-2 * time.Hour)
	oldEvents := events("old", 3)
	for i := range oldEvents {
		oldEvents[i].CreatedAt = old
	}
	_, err := s.AppendEvents(ctx, a.ws, sa.ID, oldEvents)
	must(t, err)
	_, err = s.AppendEvents(ctx, b.ws, sb.ID, oldEvents[:1])
	must(t, err)
	_, err = s.AppendEvents(ctx, b.ws, sb.ID, events("new", 2))
	must(t, err)

	n, err := s.PruneEvents(ctx, now().Add(-time.Hour))
	must(t, err)
	if n != 4 {
		t.Errorf("PruneEvents = %d, want 4", n)
	}
	left, err := s.EventsAfter(ctx, b.ws, sb.ID, 0, 0)
	must(t, err)
	if len(left) != 2 || left[0].Seq != 2 || left[0].Type != "new" {
		t.Errorf("events left in b = %s", str(left))
	}
	if last, err := s.LastEventSeq(ctx, a.ws, sa.ID); err != nil || last != 3 {
		t.Errorf("LastEventSeq of a pruned session = %d, %v, want 3", last, err)
	}
	next, err := s.AppendEvents(ctx, a.ws, sa.ID, events("after", 1))
	must(t, err)
	if len(next) != 1 || next[0].Seq != 4 {
		t.Errorf("after pruning, the next event is numbered %s, want 4", str(next))
	}
	n, err = s.PruneEvents(ctx, now().Add(-time.Hour))
	must(t, err)
	if n != 0 {
		t.Errorf("pruning again = %d, want 0", n)
	}
}
