package storetest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

func testSetIdentity(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	for _, c := range []struct {
		name       string
		from, to   string
		wantCancel bool
	}{
		{"gained", "", "ann", true},
		{"lost", "ann", "", true},
		{"different", "ann", "bob", true},
		{"same", "ann", "ann", false},
		{"still none", "", "", false},
	} {
		ctx := t.Context()
		sess := tn.session(t, c.from)
		r, _ := tn.start(t, sess.ID, "hi")
		tn.pause(t, r, now().Add(time.Hour))
		open := openWaitID(ctx, t, s, tn.ws, sess.ID)
		must(t, s.SetIdentity(ctx, tn.ws, sess.ID, c.to))
		got, err := s.Session(ctx, tn.ws, sess.ID)
		must(t, err)
		if got.Identity != c.to {
			t.Errorf("%s: identity = %q, want %q", c.name, got.Identity, c.to)
		}
		id := openWaitID(ctx, t, s, tn.ws, sess.ID)
		if c.wantCancel && id != 0 {
			t.Errorf("%s: wait %d still open after the identity changed", c.name, id)
		}
		if !c.wantCancel && id != open {
			t.Errorf("%s: open wait is %d, want %d untouched", c.name, id, open)
		}
	}
	// Without a wait there is nothing to cancel, and that is no error.
	sess := tn.session(t, "")
	must(t, s.SetIdentity(t.Context(), tn.ws, sess.ID, "carl"))
}

func testEndSession(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	r, _ := tn.start(t, sess.ID, "hi")
	tn.pause(t, r, now().Add(time.Hour))
	before := time.Now()
	must(t, s.EndSession(ctx, tn.ws, sess.ID))
	got, err := s.Session(ctx, tn.ws, sess.ID)
	must(t, err)
	if got.Status != store.SessionEnded || got.EndedAt == nil ||
		got.EndedAt.Before(before.Add(-time.Second)) || got.EndedAt.After(time.Now().Add(time.Second)) {
		t.Errorf("ended session = %s", str(got))
	}
	if id := openWaitID(ctx, t, s, tn.ws, sess.ID); id != 0 {
		t.Errorf("wait %d still open in an ended session", id)
	}
	// Ending it again changes nothing.
	must(t, s.EndSession(ctx, tn.ws, sess.ID))
	again, err := s.Session(ctx, tn.ws, sess.ID)
	must(t, err)
	if again.Status != store.SessionEnded || again.EndedAt == nil || !again.EndedAt.Equal(*got.EndedAt) {
		t.Errorf("ending twice moved endedAt: %s then %s", str(got), str(again))
	}
}

func testMessages(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	_, err := s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	at := now().Add(-time.Hour)
	ts := tn.turnStart(sess.ID, "héllo ✓ \"quoted\"\nnew line")
	ts.Message.CreatedAt, ts.Message.Mood = at, "curious"
	r, m, err := s.StartTurn(ctx, ts)
	must(t, err)
	said := []store.Message{
		{Role: "assistant", Text: "one", Mood: "happy", CreatedAt: at.Add(time.Second)},
		{Role: "assistant", Text: "", CreatedAt: at.Add(2 * time.Second)},
		{Role: "assistant", Text: "three", TurnComplete: true, CreatedAt: at.Add(3 * time.Second)},
	}
	must(t, s.EndTurn(ctx, store.TurnEnd{Run: withStatus(r, vocab.RunCompleted), Messages: said}))
	got, err := s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	want := append([]store.Message{m}, said...)
	if len(got) != len(want) {
		t.Fatalf("Messages = %s, want %d", str(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if i > 0 && g.ID <= got[i-1].ID {
			t.Errorf("message %d: id %d not after %d", i, g.ID, got[i-1].ID)
		}
		if g.Role != w.Role || g.Text != w.Text || g.Mood != w.Mood || g.TurnComplete != w.TurnComplete ||
			g.RunID != r.ID || g.SessionID != sess.ID || g.WorkspaceID != tn.ws || !sameTime(w.CreatedAt, g.CreatedAt) {
			t.Errorf("message %d = %s, want %s with run %d", i, str(g), str(w), r.ID)
		}
	}
}

func testRunsBySession(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	none, err := s.RunsBySession(ctx, tn.ws, sess.ID)
	must(t, err)
	if len(none) != 0 {
		t.Errorf("runs of a new session: %s", str(none))
	}
	r1, _ := tn.start(t, sess.ID, "a")
	trace1 := json.RawMessage(`[{"node":"ask"}]`)
	r1.NodeTrace = trace1
	tn.pause(t, r1, now().Add(time.Hour))
	ts := tn.turnStart(sess.ID, "b")
	ts.Run.ResumedFromRunID = r1.ID
	r2, _, err := s.StartTurn(ctx, ts)
	must(t, err)
	trace2 := json.RawMessage(`[ {"node": "reply"} ]`)
	r2.NodeTrace, r2.Status = trace2, vocab.RunCompleted
	must(t, s.EndTurn(ctx, store.TurnEnd{Run: r2}))
	r3, _ := tn.start(t, sess.ID, "c")

	got, err := s.RunsBySession(ctx, tn.ws, sess.ID)
	must(t, err)
	want := []struct {
		id, resumed int64
		status      string
		trace       json.RawMessage
	}{
		{r1.ID, 0, vocab.RunAwaitingInput, trace1},
		{r2.ID, r1.ID, vocab.RunCompleted, trace2},
		{r3.ID, 0, vocab.RunRunning, nil},
	}
	if len(got) != len(want) {
		t.Fatalf("RunsBySession = %s, want %d runs", str(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.id || g.ResumedFromRunID != w.resumed || g.Status != w.status ||
			!bytes.Equal(g.NodeTrace, w.trace) || g.SessionID != sess.ID || g.WorkflowID != tn.workflow {
			t.Errorf("run %d = %s, want %+v", i, str(g), w)
		}
	}
}

// testAppendMessage keeps a message that starts no run.
func testAppendMessage(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	at := now().Add(-time.Minute)
	m, err := s.AppendMessage(ctx, store.Message{WorkspaceID: tn.ws, SessionID: sess.ID, Role: "user",
		Text: "kept, never run", Mood: "hopeful", CreatedAt: at})
	must(t, err)
	r, _ := tn.start(t, sess.ID, "later")
	later, err := s.AppendMessage(ctx, store.Message{WorkspaceID: tn.ws, SessionID: sess.ID, Role: "user", Text: "b"})
	must(t, err)
	if m.ID <= 0 || later.ID <= m.ID || later.CreatedAt.IsZero() {
		t.Errorf("AppendMessage ids %d then %d, time %v", m.ID, later.ID, later.CreatedAt)
	}
	got, err := s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	if len(got) != 3 || got[0].ID != m.ID || got[0].RunID != 0 || got[0].Text != "kept, never run" ||
		got[0].Mood != "hopeful" || !sameTime(at, got[0].CreatedAt) || got[1].RunID != r.ID || got[2].ID != later.ID {
		t.Errorf("Messages = %s", str(got))
	}
	runs, err := s.RunsBySession(ctx, tn.ws, sess.ID)
	must(t, err)
	if len(runs) != 1 {
		t.Errorf("appending started runs: %s", str(runs))
	}
}

// testSessionParent: a child session names the session that dispatched
// it, read back by every read of a session; a parent of another workspace
// is refused.
func testSessionParent(t *testing.T, e *env) {
	s := e.shared
	ctx := t.Context()
	tn, other := newTenant(t, s), newTenant(t, s)
	parent := tn.session(t, "ann")
	child, err := s.CreateSession(ctx, store.Session{WorkspaceID: tn.ws, AgentID: tn.agent, ParentSessionID: parent.ID, Channel: "sub_agent"})
	must(t, err)
	if child.ParentSessionID != parent.ID {
		t.Fatalf("created child: %s", str(child))
	}
	got, err := s.Session(ctx, tn.ws, child.ID)
	must(t, err)
	if got.ParentSessionID != parent.ID {
		t.Errorf("Session: parent %d, want %d", got.ParentSessionID, parent.ID)
	}
	st, err := s.TurnState(ctx, tn.ws, child.ID, now())
	must(t, err)
	if st.Session.ParentSessionID != parent.ID {
		t.Errorf("TurnState: parent %d, want %d", st.Session.ParentSessionID, parent.ID)
	}
	if p, err := s.Session(ctx, tn.ws, parent.ID); err != nil || p.ParentSessionID != 0 {
		t.Errorf("the parent: %s, %v", str(p), err)
	}
	page, err := s.Sessions(ctx, tn.ws, store.SessionQuery{Limit: 10})
	must(t, err)
	found := false
	for _, ss := range page {
		found = found || (ss.ID == child.ID && ss.ParentSessionID == parent.ID)
	}
	if !found {
		t.Errorf("the listing lacks the child with its parent: %s", str(page))
	}
	_, err = s.CreateSession(ctx, store.Session{WorkspaceID: other.ws, AgentID: other.agent, ParentSessionID: parent.ID})
	wantErr(t, "a parent of another workspace", err, store.ErrNotFound)
}
