package storetest

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// testCrossWorkspace reads and writes workspace A's rows with workspace B's
// id through every method that takes one: each must say ErrNotFound and
// leave A's rows as they were.
func testCrossWorkspace(t *testing.T, e *env) {
	s := e.shared
	a, b := newTenant(t, s), newTenant(t, s)
	sess := a.session(t, "alice")
	r1, _ := a.start(t, sess.ID, "hi")
	a.pause(t, r1, now().Add(time.Hour))
	r2, _ := a.start(t, sess.ID, "small") // left RUNNING
	wait := openWaitID(t.Context(), t, s, a.ws, sess.ID)
	bSess := b.session(t, "bob")
	bRun, _ := b.start(t, bSess.ID, "hello")
	api := newAPIFixture(t, s, a, b, sess.ID, r1.ID)

	type snapshot struct {
		Workflow store.Workflow
		Session  store.Session
		Messages []store.Message
		Runs     []store.Run
		Waits    []store.Wait
		API      apiRows
	}
	look := func() snapshot {
		ctx := t.Context()
		var sn snapshot
		var err error
		sn.Workflow, err = s.Workflow(ctx, a.ws, a.workflow)
		must(t, err)
		sn.Session, err = s.Session(ctx, a.ws, sess.ID)
		must(t, err)
		sn.Messages, err = s.Messages(ctx, a.ws, sess.ID)
		must(t, err)
		sn.Runs, err = s.RunsBySession(ctx, a.ws, sess.ID)
		must(t, err)
		sn.Waits, err = s.PendingWaits(ctx, a.ws, sess.ID, KindQuestion, now())
		must(t, err)
		sn.API = api.look(t)
		return sn
	}
	before := look()

	end := func(ws int64, run store.Run) store.TurnEnd {
		run.WorkspaceID, run.Status = ws, vocab.RunCompleted
		return store.TurnEnd{Run: run}
	}
	foreignStart := func(mut func(*store.TurnStart)) error {
		ts := a.turnStart(sess.ID, "x")
		mut(&ts)
		_, _, err := s.StartTurn(t.Context(), ts)
		return err
	}
	nowT := now()
	for _, c := range append([]crossCase{
		{"Workflow", func(ctx context.Context) error { _, err := s.Workflow(ctx, b.ws, a.workflow); return err }},
		{"WorkflowVersion", func(ctx context.Context) error {
			_, err := s.WorkflowVersion(ctx, b.ws, a.workflow, 1)
			return err
		}},
		{"SaveDraft", func(ctx context.Context) error {
			return s.SaveDraft(ctx, b.ws, a.workflow, json.RawMessage(`{"stolen":true}`))
		}},
		{"Publish", func(ctx context.Context) error {
			_, err := s.Publish(ctx, b.ws, a.workflow, json.RawMessage(`{"stolen":true}`), "b")
			return err
		}},
		{"Agent", func(ctx context.Context) error { _, err := s.Agent(ctx, b.ws, a.agent); return err }},
		{"Session", func(ctx context.Context) error { _, err := s.Session(ctx, b.ws, sess.ID); return err }},
		{"SetIdentity", func(ctx context.Context) error { return s.SetIdentity(ctx, b.ws, sess.ID, "mallory") }},
		{"EndSession", func(ctx context.Context) error { return s.EndSession(ctx, b.ws, sess.ID) }},
		{"Messages", func(ctx context.Context) error { _, err := s.Messages(ctx, b.ws, sess.ID); return err }},
		{"AppendMessage", func(ctx context.Context) error {
			_, err := s.AppendMessage(ctx, store.Message{WorkspaceID: b.ws, SessionID: sess.ID, Role: "user", Text: "x"})
			return err
		}},
		{"AppendMessage/run", func(ctx context.Context) error {
			_, err := s.AppendMessage(ctx, store.Message{WorkspaceID: b.ws, SessionID: bSess.ID, RunID: r1.ID, Role: "user"})
			return err
		}},
		{"Run", func(ctx context.Context) error { _, err := s.Run(ctx, b.ws, r1.ID); return err }},
		{"RunsBySession", func(ctx context.Context) error { _, err := s.RunsBySession(ctx, b.ws, sess.ID); return err }},
		{"OpenWait", func(ctx context.Context) error { _, _, err := s.OpenWait(ctx, b.ws, sess.ID, nowT); return err }},
		{"TurnState", func(ctx context.Context) error { _, err := s.TurnState(ctx, b.ws, sess.ID, nowT); return err }},
		{"PendingWaits", func(ctx context.Context) error {
			_, err := s.PendingWaits(ctx, b.ws, sess.ID, KindQuestion, nowT)
			return err
		}},
		{"StartTurn/run workspace", func(context.Context) error {
			return foreignStart(func(ts *store.TurnStart) { ts.Run.WorkspaceID, ts.Message.WorkspaceID = b.ws, b.ws })
		}},
		{"StartTurn/message workspace", func(context.Context) error {
			return foreignStart(func(ts *store.TurnStart) { ts.Message.WorkspaceID = b.ws })
		}},
		{"StartTurn/workflow", func(context.Context) error {
			return foreignStart(func(ts *store.TurnStart) { ts.Run.WorkflowID = b.workflow })
		}},
		{"StartTurn/resumed run", func(context.Context) error {
			return foreignStart(func(ts *store.TurnStart) { ts.Run.ResumedFromRunID = bRun.ID })
		}},
		{"EndTurn/run workspace", func(ctx context.Context) error { return s.EndTurn(ctx, end(b.ws, r2)) }},
		{"EndTurn/message workspace", func(ctx context.Context) error {
			te := end(b.ws, bRun)
			te.Messages = []store.Message{{WorkspaceID: a.ws, SessionID: sess.ID, Role: "assistant", Text: "x"}}
			return s.EndTurn(ctx, te)
		}},
		{"EndTurn/message session", func(ctx context.Context) error {
			te := end(b.ws, bRun)
			te.Messages = []store.Message{{SessionID: sess.ID, Role: "assistant", Text: "x"}}
			return s.EndTurn(ctx, te)
		}},
		{"EndTurn/close wait", func(ctx context.Context) error {
			te := end(b.ws, bRun)
			te.CloseWait = &store.WaitClose{WaitID: wait, Status: vocab.WaitCancelled}
			return s.EndTurn(ctx, te)
		}},
	}, api.cases()...) {
		wantErr(t, c.name, c.call(t.Context()), store.ErrNotFound)
	}

	after := look()
	if !reflect.DeepEqual(after, before) {
		t.Errorf("workspace A changed:\nbefore %s\nafter  %s", str(before), str(after))
	}
	got, err := s.Run(t.Context(), b.ws, bRun.ID)
	must(t, err)
	if got.Status != vocab.RunRunning {
		t.Errorf("a refused EndTurn left B's run %s", got.Status)
	}
	all, err := s.PendingWaits(t.Context(), b.ws, 0, KindQuestion, now())
	must(t, err)
	if len(all) != 0 {
		t.Errorf("PendingWaits of B lists %s", str(all))
	}
}

// testCreateAcrossWorkspaces links new rows to another workspace's.
func testCreateAcrossWorkspaces(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	a, b := newTenant(t, s), newTenant(t, s)
	_, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: b.ws, Name: "x", WorkflowID: a.workflow})
	wantErr(t, "CreateAgent with another workspace's workflow", err, store.ErrNotFound)
	_, err = s.CreateSession(ctx, store.Session{WorkspaceID: b.ws, AgentID: a.agent})
	wantErr(t, "CreateSession with another workspace's agent", err, store.ErrNotFound)
	_, err = s.CreateWorkflow(ctx, store.Workflow{WorkspaceID: a.ws + b.ws + 1_000_000, Name: "x"})
	wantErr(t, "CreateWorkflow in no workspace", err, store.ErrNotFound)
}
