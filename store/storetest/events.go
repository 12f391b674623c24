package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
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

	t.Run("Batches", func(t *testing.T) { testEventBatches(t, tn) })
}

// testEventBatches reads a session's log from every seq with every limit
// up to its length: a replay may start, and a limit cut, in the middle of
// what one append stored. Payloads come back as they went in, but for the
// white space around them; an event without one has none, not null.
func testEventBatches(t *testing.T, tn *tenant) {
	ctx := t.Context()
	s := tn.s
	sess := tn.session(t, "")
	t0 := now()
	var want []store.Event
	for _, batch := range [][]store.Event{
		{
			{Type: `a "quoted" type \ é`, Payload: json.RawMessage(`"]\"[{ ünïcode \u00e9"`), CreatedAt: t0.Add(-time.Minute)},
			{Type: "null", Payload: json.RawMessage(`null`), CreatedAt: t0.Add(-2 * time.Minute)},
			{Type: "spaced", Payload: json.RawMessage(" \n\t[1, {\"a\": \"]\", \"b\": [[], {}]}, -1.5e3, true] \r\n")},
			{Type: "none"},
		},
		{
			{Type: "number", Payload: json.RawMessage(`42`), CreatedAt: t0.Add(-time.Second)},
			{Type: "nested", Payload: json.RawMessage(`{"x":{"y":[{"z":"}"}]}}`)},
			{Type: "empty", Payload: json.RawMessage(`{}`)},
		},
		events("single", 1),
	} {
		got, err := s.AppendEvents(ctx, tn.ws, sess.ID, batch)
		must(t, err)
		for i, e := range batch {
			if p := bytes.TrimSpace(e.Payload); !bytes.Equal(got[i].Payload, p) || (p == nil) != (got[i].Payload == nil) {
				t.Errorf("AppendEvents returned payload %q for %q", got[i].Payload, e.Payload)
			}
			if !e.CreatedAt.IsZero() && !got[i].CreatedAt.Equal(e.CreatedAt) {
				t.Errorf("AppendEvents returned time %v for %v", got[i].CreatedAt, e.CreatedAt)
			}
		}
		want = append(want, got...)
	}
	if len(want) != 8 || want[7].Seq != 8 {
		t.Fatalf("appended %s", str(want))
	}
	for after := 0; after <= len(want); after++ {
		for limit := 1; limit <= len(want)+1; limit++ {
			got, err := s.EventsAfter(ctx, tn.ws, sess.ID, int64(after), limit)
			must(t, err)
			if w := want[after:min(after+limit, len(want))]; !sameEvents(got, w) {
				t.Errorf("EventsAfter(%d, limit %d) = %s\nwant %s", after, limit, dump(got), dump(w))
			}
		}
	}

	for _, bad := range []string{`{"a":`, `{} {}`, `  `, `nul`, `{'a': 1}`} {
		_, err := s.AppendEvents(ctx, tn.ws, sess.ID, []store.Event{{Type: "ok"}, {Type: "bad", Payload: json.RawMessage(bad)}})
		wantErr(t, fmt.Sprintf("a payload of %q", bad), err, store.ErrInvalid)
	}
	if last, err := s.LastEventSeq(ctx, tn.ws, sess.ID); err != nil || last != 8 {
		t.Errorf("after refused payloads, LastEventSeq = %d, %v, want 8", last, err)
	}
}

// sameEvents compares events field by field: payloads byte for byte, nil
// apart from empty, times as instants.
func sameEvents(a, b []store.Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.WorkspaceID != y.WorkspaceID || x.SessionID != y.SessionID || x.Seq != y.Seq || x.Type != y.Type ||
			!bytes.Equal(x.Payload, y.Payload) || (x.Payload == nil) != (y.Payload == nil) || !x.CreatedAt.Equal(y.CreatedAt) {
			return false
		}
	}
	return true
}

// dump shows events with their payloads verbatim (str would compact them).
func dump(evs []store.Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "\n\t%d %q %q %v", e.Seq, e.Type, e.Payload, e.CreatedAt)
	}
	return b.String()
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
// own): newer ones stay, and so do old ones appended with a newer one,
// numbering goes on after a pruned session's last number, and the count
// is of events, not of appends.
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
	// What one call appended goes together: an old event stays while a
	// newer one of its batch does.
	sc := a.session(t, "")
	mixed, err := s.AppendEvents(ctx, a.ws, sc.ID, []store.Event{oldEvents[0], {Type: "new"}})
	must(t, err)

	n, err := s.PruneEvents(ctx, now().Add(-time.Hour))
	must(t, err)
	if n != 4 {
		t.Errorf("PruneEvents = %d, want 4", n)
	}
	if kept, err := s.EventsAfter(ctx, a.ws, sc.ID, 0, 0); err != nil || !sameEvents(kept, mixed) {
		t.Errorf("a batch with a recent event kept %s, %v, want %s", str(kept), err, str(mixed))
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

// benchTurnEvents is what a turn publishes: ten events whose payloads are
// about 150 bytes each, stamped as the server's persister stamps them.
func benchTurnEvents(run int, at time.Time) []store.Event {
	types := [...]string{"RunStarted", "NodeExecuting", "NodeCompleted", "NodeExecuting", "NodeCompleted",
		"NodeExecuting", "NodeCompleted", "Message", "RunFinished", "TurnComplete"}
	evs := make([]store.Event, len(types))
	for i, typ := range types {
		evs[i] = store.Event{Type: typ, CreatedAt: at.Add(time.Duration(i) * time.Millisecond),
			Payload: json.RawMessage(fmt.Sprintf(
				`{"runId":%d,"nodeId":"node-%d","status":"COMPLETED","durationMs":%d,"output":{"text":"Your flat white is on its way, see you at the counter."}}`,
				run, i, 10+i))}
	}
	return evs
}

// benchEventSessions makes n sessions of one workspace.
func benchEventSessions(b *testing.B, s store.Store, n int) (ws int64, ids []int64) {
	b.Helper()
	ws, agent, _ := BenchTenant(b, s)
	for range n {
		sess, err := s.CreateSession(context.Background(), store.Session{WorkspaceID: ws, AgentID: agent})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, sess.ID)
	}
	return ws, ids
}

// BenchAppendEvents is the server's event persister: an op is one
// AppendEvents call of a turn's ten events, round 64 sessions.
func BenchAppendEvents(b *testing.B, s store.Store) {
	ws, sessions := benchEventSessions(b, s, 64)
	batches := make([][]store.Event, 16)
	for i := range batches {
		batches[i] = benchTurnEvents(i, time.Now())
	}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.AppendEvents(ctx, ws, sessions[i%len(sessions)], batches[i%len(batches)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchEventsAfter is a reconnecting client's replay: the last 25 events
// of a session that has 50 turns' worth, from the middle of a turn.
func BenchEventsAfter(b *testing.B, s store.Store) {
	ws, sessions := benchEventSessions(b, s, 1)
	ctx := context.Background()
	for i := range 50 {
		if _, err := s.AppendEvents(ctx, ws, sessions[0], benchTurnEvents(i, time.Now())); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		evs, err := s.EventsAfter(ctx, ws, sessions[0], 475, 0)
		if err != nil || len(evs) != 25 || evs[0].Seq != 476 {
			b.Fatalf("%d events, %v", len(evs), err)
		}
	}
}
