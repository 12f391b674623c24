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

// testTurnState reads a turn's state as the separate reads would, at each
// step of a conversation.
func testTurnState(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "ann")

	// wantState is what the five separate reads say at `at`; the workflow's
	// draft may be left out.
	wantState := func(at time.Time) store.TurnState {
		t.Helper()
		var want store.TurnState
		var err error
		want.Session, err = s.Session(ctx, tn.ws, sess.ID)
		must(t, err)
		want.Agent, err = s.Agent(ctx, tn.ws, want.Session.AgentID)
		must(t, err)
		want.Workflow, err = s.Workflow(ctx, tn.ws, want.Agent.WorkflowID)
		must(t, err)
		want.History, err = s.Messages(ctx, tn.ws, sess.ID)
		must(t, err)
		want.Wait, want.Snapshot, err = s.OpenWait(ctx, tn.ws, sess.ID, at)
		if !wantIs(err, store.ErrNotFound) {
			must(t, err)
			want.HasWait = true
		}
		return want
	}
	check := func(step string, at time.Time) store.TurnState {
		t.Helper()
		want := wantState(at)
		got, err := s.TurnState(ctx, tn.ws, sess.ID, at)
		must(t, err)
		ret := got
		if len(got.Workflow.Draft) != 0 && !bytes.Equal(got.Workflow.Draft, want.Workflow.Draft) {
			t.Errorf("%s: draft %s, want %s or none", step, got.Workflow.Draft, want.Workflow.Draft)
		}
		got.Workflow.Draft, want.Workflow.Draft = nil, nil
		if len(got.History) == 0 && len(want.History) == 0 {
			got.History, want.History = nil, nil
		}
		if !bytes.Equal(got.Snapshot, want.Snapshot) {
			t.Errorf("%s: snapshot %s, want %s", step, got.Snapshot, want.Snapshot)
		}
		got.Snapshot, want.Snapshot = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: TurnState = %s\nwant        %s", step, str(got), str(want))
		}
		return ret
	}

	st := check("a new session", now())
	if st.HasWait || len(st.History) != 0 || st.Workflow.ID != tn.workflow || st.Workflow.PublishedVersion != 1 {
		t.Errorf("a new session: %s", str(st))
	}

	r, _ := tn.start(t, sess.ID, "I want a coffee")
	expires := now().Add(time.Hour)
	end := pauseEnd(r, expires, nil)
	end.Pause.Wait.Identity = "ann"
	must(t, s.EndTurn(ctx, end))
	st = check("paused", now())
	if !st.HasWait || st.Wait.RunID != r.ID || len(st.History) != 2 || st.History[0].Text != "I want a coffee" ||
		!bytes.Equal(st.Snapshot, end.Pause.Snapshot) || st.Wait.Identity != "ann" {
		t.Errorf("paused: %s", str(st))
	}

	// Past its expiry the wait is closed, not returned, and stays closed.
	st, err := s.TurnState(ctx, tn.ws, sess.ID, expires)
	must(t, err)
	if st.HasWait || st.Wait.ID != 0 || st.Snapshot != nil || len(st.History) != 2 {
		t.Errorf("at expiry: %s (snapshot %s)", str(st), st.Snapshot)
	}
	if id := openWaitID(ctx, t, s, tn.ws, sess.ID); id != 0 {
		t.Errorf("wait %d still open after TurnState expired it", id)
	}
	check("expired", expires.Add(-time.Hour))

	// A wait with no expiry (the zero ExpiresAt) never lapses.
	r2, _ := tn.start(t, sess.ID, "again")
	r2.Status = vocab.RunAwaitingInput
	must(t, s.EndTurn(ctx, store.TurnEnd{Run: r2, Pause: &store.Pause{
		Wait:     freeText("name", "ann"),
		Snapshot: json.RawMessage(`{}`)}}))
	far := now().Add(100 * 365 * 24 * time.Hour)
	st = check("no expiry", far)
	if !st.HasWait || !st.Wait.ExpiresAt.IsZero() || string(st.Wait.State) != freeTextState {
		t.Errorf("a wait with no expiry: %s", str(st))
	}

	// An ended session reads as ENDED, its wait cancelled.
	must(t, s.EndSession(ctx, tn.ws, sess.ID))
	st = check("ended", now())
	if st.Session.Status != store.SessionEnded || st.HasWait {
		t.Errorf("ended: %s", str(st))
	}
}

// testTurnStateNoWorkflow: an agent with no workflow reads a zero Workflow;
// one whose workflow was never published, PublishedVersion 0.
func testTurnStateNoWorkflow(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	bare, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: tn.ws, Name: "bare", Persona: "p", DefaultModel: "m"})
	must(t, err)
	sess, err := s.CreateSession(ctx, store.Session{WorkspaceID: tn.ws, AgentID: bare.ID, Identity: "x"})
	must(t, err)
	_, err = s.AppendMessage(ctx, store.Message{WorkspaceID: tn.ws, SessionID: sess.ID, Role: "user", Text: "hello?"})
	must(t, err)
	st, err := s.TurnState(ctx, tn.ws, sess.ID, now())
	must(t, err)
	if !reflect.DeepEqual(st.Workflow, store.Workflow{}) || st.Agent.ID != bare.ID || st.Agent.WorkflowID != 0 ||
		st.Agent.Persona != "p" || st.Session.ID != sess.ID || len(st.History) != 1 ||
		st.History[0].Text != "hello?" || st.History[0].RunID != 0 || st.HasWait {
		t.Errorf("TurnState with no workflow = %s", str(st))
	}

	draft, err := s.CreateWorkflow(ctx, store.Workflow{WorkspaceID: tn.ws, Name: "draft only",
		Draft: json.RawMessage(`{"nodes":[]}`)})
	must(t, err)
	a, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: tn.ws, Name: "unpublished", WorkflowID: draft.ID})
	must(t, err)
	sess2, err := s.CreateSession(ctx, store.Session{WorkspaceID: tn.ws, AgentID: a.ID})
	must(t, err)
	st, err = s.TurnState(ctx, tn.ws, sess2.ID, now())
	must(t, err)
	if st.Workflow.ID != draft.ID || st.Workflow.PublishedVersion != 0 || st.Workflow.Name != "draft only" ||
		st.Workflow.WorkspaceID != tn.ws || len(st.History) != 0 {
		t.Errorf("TurnState with an unpublished workflow = %s", str(st))
	}
}

// testTurnStateIsolation: another workspace's session, or none, is
// ErrNotFound, and reading it leaves the owner's wait open.
func testTurnStateIsolation(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	a, b := newTenant(t, s), newTenant(t, s)
	sess := a.session(t, "alice")
	r, _ := a.start(t, sess.ID, "hi")
	expires := now().Add(time.Hour)
	a.pause(t, r, expires)
	wait := openWaitID(ctx, t, s, a.ws, sess.ID)

	// Even at a time that would expire the wait.
	_, err := s.TurnState(ctx, b.ws, sess.ID, expires.Add(time.Minute))
	wantErr(t, "another workspace's session", err, store.ErrNotFound)
	_, err = s.TurnState(ctx, a.ws, sess.ID+1_000_000, now())
	wantErr(t, "no such session", err, store.ErrNotFound)
	_, err = s.TurnState(ctx, a.ws+b.ws+1_000_000, sess.ID, now())
	wantErr(t, "no such workspace", err, store.ErrNotFound)
	if id := openWaitID(ctx, t, s, a.ws, sess.ID); id != wait {
		t.Errorf("open wait %d after foreign reads, want %d", id, wait)
	}
	st, err := s.TurnState(ctx, a.ws, sess.ID, now())
	must(t, err)
	if st.Session.WorkspaceID != a.ws || !st.HasWait || st.Wait.ID != wait || st.Wait.WorkspaceID != a.ws {
		t.Errorf("the owner's TurnState = %s", str(st))
	}
}

// testTurnStateSince: the transcript read after a message id holds only the
// newer messages; everything else is as TurnState reads it.
func testTurnStateSince(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	var ids []int64
	for _, text := range []string{"one", "two", "three"} {
		m, err := s.AppendMessage(ctx, store.Message{WorkspaceID: tn.ws, SessionID: sess.ID, Role: "user", Text: text})
		must(t, err)
		ids = append(ids, m.ID)
	}
	full, err := s.TurnState(ctx, tn.ws, sess.ID, now())
	must(t, err)
	since, err := s.TurnStateSince(ctx, tn.ws, sess.ID, now(), ids[1])
	must(t, err)
	if len(since.History) != 1 || since.History[0].Text != "three" || since.History[0].ID != ids[2] {
		t.Fatalf("history after message %d = %s", ids[1], str(since.History))
	}
	since.History, full.History = nil, nil
	if !reflect.DeepEqual(since, full) {
		t.Errorf("TurnStateSince differs beyond the history:\n%s\n%s", str(since), str(full))
	}
	none, err := s.TurnStateSince(ctx, tn.ws, sess.ID, now(), ids[2])
	must(t, err)
	if len(none.History) != 0 {
		t.Errorf("history after the last message = %s", str(none.History))
	}
	if _, err := s.TurnStateSince(ctx, tn.ws+1_000_000, sess.ID, now(), 0); !wantIs(err, store.ErrNotFound) {
		t.Errorf("another workspace's session: %v", err)
	}
}
