package storetest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

func testIDsIncrease(t *testing.T, e *env) {
	tn := newTenant(t, e.shared)
	var last struct{ session, run, message, wait int64 }
	ctx := t.Context()
	for i := 0; i < 3; i++ {
		sess := tn.session(t, "")
		r, m := tn.start(t, sess.ID, "hi")
		tn.pause(t, r, now().Add(time.Hour))
		w, _, err := e.shared.OpenWait(ctx, tn.ws, sess.ID, now())
		must(t, err)
		msgs, err := e.shared.Messages(ctx, tn.ws, sess.ID)
		must(t, err)
		for name, pair := range map[string][2]int64{
			"session": {last.session, sess.ID}, "run": {last.run, r.ID},
			"message": {last.message, m.ID}, "wait": {last.wait, w.ID},
			"assistant message": {m.ID, msgs[len(msgs)-1].ID},
		} {
			if pair[1] <= pair[0] {
				t.Errorf("round %d: %s id %d after %d: want increasing", i, name, pair[1], pair[0])
			}
		}
		last.session, last.run, last.message, last.wait = sess.ID, r.ID, msgs[len(msgs)-1].ID, w.ID
	}
}

func testStartTurn(t *testing.T, e *env) {
	ctx := t.Context()
	tn := newTenant(t, e.shared)
	sess := tn.session(t, "")
	started, said := now().Add(-time.Minute), now().Add(-time.Minute+time.Millisecond)
	ts := tn.turnStart(sess.ID, "hello there")
	ts.Run.StartedAt, ts.Message.CreatedAt, ts.Message.Mood = started, said, "cheerful"
	r, m, err := e.shared.StartTurn(ctx, ts)
	must(t, err)
	if r.ID <= 0 || r.Status != vocab.RunRunning || r.FinishedAt != nil || !sameTime(started, r.StartedAt) ||
		r.WorkflowID != tn.workflow || r.Version != 1 || r.SessionID != sess.ID || r.WorkspaceID != tn.ws {
		t.Errorf("StartTurn run = %s", str(r))
	}
	if m.ID <= 0 || m.RunID != r.ID || m.Text != "hello there" || m.Role != "user" ||
		m.SessionID != sess.ID || m.WorkspaceID != tn.ws || !sameTime(said, m.CreatedAt) {
		t.Errorf("StartTurn message = %s (run %d)", str(m), r.ID)
	}
	got, err := e.shared.Run(ctx, tn.ws, r.ID)
	must(t, err)
	if !reflect.DeepEqual(got, r) {
		t.Errorf("Run = %s\nwant  %s", str(got), str(r))
	}
	msgs, err := e.shared.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	if len(msgs) != 1 || !reflect.DeepEqual(msgs[0], m) {
		t.Errorf("Messages = %s, want [%s]", str(msgs), str(m))
	}

	// Zero times are filled with now; a resumed run names the run it follows.
	ts = tn.turnStart(sess.ID, "again")
	ts.Run.ResumedFromRunID = r.ID
	before := time.Now()
	r2, m2, err := e.shared.StartTurn(ctx, ts)
	must(t, err)
	if r2.ResumedFromRunID != r.ID || r2.StartedAt.Before(before.Add(-time.Second)) || m2.CreatedAt.IsZero() {
		t.Errorf("resumed StartTurn = %s, %s", str(r2), str(m2))
	}
	got, err = e.shared.Run(ctx, tn.ws, r2.ID)
	must(t, err)
	if got.ResumedFromRunID != r.ID {
		t.Errorf("stored ResumedFromRunID = %d, want %d", got.ResumedFromRunID, r.ID)
	}
}

func testEndTurn(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "ann")
	r1, _ := tn.start(t, sess.ID, "I want a coffee")
	finished, expires := now(), now().Add(time.Hour)
	trace := json.RawMessage(`[{"node":"start","ms":1},{"node":"ask","ms":2}]`)
	snap := json.RawMessage(`{"vars": {"order": "coffee"}, "at": "ask"}`)
	state := json.RawMessage(`{"saveAs":"size","matchMode":"options","options":[[1,"s","Small"],[2,"m","Medium"],[3,"l","Large"]]}`)
	r1.Status, r1.NodeTrace, r1.FinishedAt = vocab.RunAwaitingInput, trace, &finished
	must(t, s.EndTurn(ctx, store.TurnEnd{
		Run: r1,
		Messages: []store.Message{
			{Role: "assistant", Text: "Sure.", Mood: "warm"},
			{Role: "assistant", Text: "Which size?", TurnComplete: true},
		},
		Pause: &store.Pause{Wait: store.Wait{NodeID: "ask", Kind: KindQuestion, ResumeOn: vocab.ResumeOnReply,
			State: state, Identity: "ann", ExpiresAt: expires}, Snapshot: snap},
	}))
	got, err := s.Run(ctx, tn.ws, r1.ID)
	must(t, err)
	if got.Status != vocab.RunAwaitingInput || !bytes.Equal(got.NodeTrace, trace) ||
		got.FinishedAt == nil || !sameTime(finished, *got.FinishedAt) || got.Error != "" {
		t.Errorf("ended run = %s", str(got))
	}
	msgs, err := s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	if len(msgs) != 3 || msgs[1].RunID != r1.ID || msgs[2].RunID != r1.ID || msgs[1].Text != "Sure." ||
		msgs[1].Mood != "warm" || !msgs[2].TurnComplete || msgs[1].SessionID != sess.ID || msgs[2].WorkspaceID != tn.ws {
		t.Errorf("messages after the turn = %s", str(msgs))
	}
	w, gotSnap, err := s.OpenWait(ctx, tn.ws, sess.ID, now())
	must(t, err)
	if !bytes.Equal(gotSnap, snap) {
		t.Errorf("snapshot = %s, want %s", gotSnap, snap)
	}
	if w.ID <= 0 || w.WorkspaceID != tn.ws || w.SessionID != sess.ID || w.RunID != r1.ID ||
		w.NodeID != "ask" || w.Kind != KindQuestion || w.ResumeOn != vocab.ResumeOnReply || w.Identity != "ann" ||
		w.Status != vocab.WaitOpen || !bytes.Equal(w.State, state) ||
		!sameTime(expires, w.ExpiresAt) || w.CreatedAt.IsZero() {
		t.Errorf("OpenWait = %s", str(w))
	}

	// The answer resumes: it closes the wait, and this run fails.
	ts := tn.turnStart(sess.ID, "Large")
	ts.Run.ResumedFromRunID = r1.ID
	r2, _, err := s.StartTurn(ctx, ts)
	must(t, err)
	r2.Status, r2.Error, r2.ErrorCode = vocab.RunFailed, "model timed out", "LLM_TIMEOUT"
	must(t, s.EndTurn(ctx, store.TurnEnd{Run: r2,
		CloseWait: &store.WaitClose{WaitID: w.ID, Status: vocab.WaitAnswered},
		Messages:  []store.Message{{Role: "assistant", Text: "Sorry.", TurnComplete: true}}}))
	if id := openWaitID(ctx, t, s, tn.ws, sess.ID); id != 0 {
		t.Errorf("wait %d still open after it was answered", id)
	}
	got, err = s.Run(ctx, tn.ws, r2.ID)
	must(t, err)
	if got.Status != vocab.RunFailed || got.Error != "model timed out" || got.ErrorCode != "LLM_TIMEOUT" ||
		got.FinishedAt == nil || got.ResumedFromRunID != r1.ID {
		t.Errorf("failed run = %s", str(got))
	}
}

// testEndTurnStale ends turns that lost a race or name what is not there.
func testEndTurnStale(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	r0, _ := tn.start(t, sess.ID, "a")
	tn.pause(t, r0, now().Add(time.Hour))
	w0 := openWaitID(t.Context(), t, s, tn.ws, sess.ID)
	r1, _ := tn.start(t, sess.ID, "b")
	must(t, s.EndTurn(t.Context(), store.TurnEnd{Run: withStatus(r1, vocab.RunCompleted),
		CloseWait: &store.WaitClose{WaitID: w0, Status: vocab.WaitAnswered}}))

	for _, c := range []struct {
		name   string
		end    func(running store.Run) store.TurnEnd
		target error // nil: any error
	}{
		{"run already ended", func(store.Run) store.TurnEnd {
			return store.TurnEnd{Run: withStatus(r1, vocab.RunFailed)}
		}, store.ErrConflict},
		{"wait already closed", func(r store.Run) store.TurnEnd {
			return store.TurnEnd{Run: withStatus(r, vocab.RunCompleted),
				CloseWait: &store.WaitClose{WaitID: w0, Status: vocab.WaitAnswered}}
		}, store.ErrConflict},
		{"unknown run", func(r store.Run) store.TurnEnd {
			r.ID += 1_000_000
			return store.TurnEnd{Run: withStatus(r, vocab.RunCompleted)}
		}, store.ErrNotFound},
		{"unknown wait", func(r store.Run) store.TurnEnd {
			return store.TurnEnd{Run: withStatus(r, vocab.RunCompleted),
				CloseWait: &store.WaitClose{WaitID: w0 + 1_000_000, Status: vocab.WaitAnswered}}
		}, store.ErrNotFound},
		{"ending as RUNNING", func(r store.Run) store.TurnEnd {
			return store.TurnEnd{Run: withStatus(r, vocab.RunRunning)}
		}, nil},
		{"closing as OPEN", func(r store.Run) store.TurnEnd {
			return store.TurnEnd{Run: withStatus(r, vocab.RunCompleted),
				CloseWait: &store.WaitClose{WaitID: w0, Status: vocab.WaitOpen}}
		}, nil},
	} {
		running, _ := tn.start(t, sess.ID, c.name)
		err := s.EndTurn(t.Context(), c.end(running))
		if err == nil || (c.target != nil && !wantIs(err, c.target)) {
			t.Errorf("%s: got error %v, want %v", c.name, err, c.target)
		}
		got, err := s.Run(t.Context(), tn.ws, running.ID)
		must(t, err)
		if got.Status != vocab.RunRunning {
			t.Errorf("%s: a refused EndTurn left the run %s", c.name, got.Status)
		}
	}
}

func withStatus(r store.Run, status string) store.Run {
	r.Status = status
	return r
}

// testEndTurnMessageIDs checks that EndTurn gives each message its stored
// id, and that a turn started with no message (a task) writes none.
func testEndTurnMessageIDs(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	ts := tn.turnStart(sess.ID, "")
	ts.Message = store.Message{}
	r, m, err := s.StartTurn(t.Context(), ts)
	must(t, err)
	if m.ID != 0 || r.ID == 0 {
		t.Fatalf("a task's turn returned message %+v, run %d", m, r.ID)
	}
	r.Status = vocab.RunCompleted
	end := store.TurnEnd{Run: r, Messages: []store.Message{
		{Role: "assistant", Text: "one"}, {Role: "assistant", Text: "two", TurnComplete: true}}}
	must(t, s.EndTurn(t.Context(), end))
	stored, err := s.Messages(t.Context(), tn.ws, sess.ID)
	must(t, err)
	if len(stored) != 2 {
		t.Fatalf("transcript %+v, want the two answers and no user message", stored)
	}
	for i, m := range end.Messages {
		if m.ID == 0 || m.ID != stored[i].ID || stored[i].Text != m.Text {
			t.Errorf("message %d: EndTurn set id %d, stored %+v", i, m.ID, stored[i])
		}
	}
}
