package storetest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// approvalState is what an approval wait stores in these cases; the store
// keeps it byte for byte, whatever its shape.
const approvalState = `{"saveAs": "refund", "prompt": "Refund £40?"}`

// pauseKind ends run paused on a wait of the given kind.
func pauseKind(t *testing.T, s store.Store, run store.Run, kind, resumeOn, state string, expires time.Time) error {
	t.Helper()
	run.Status = vocab.RunAwaitingInput
	if resumeOn == vocab.ResumeOnDecision {
		run.Status = vocab.RunAwaitingApproval
	}
	return s.EndTurn(t.Context(), store.TurnEnd{Run: run, Pause: &store.Pause{
		Wait:     store.Wait{NodeID: kind + "_node", Kind: kind, ResumeOn: resumeOn, State: json.RawMessage(state), ExpiresAt: expires},
		Snapshot: json.RawMessage(`{"k":"` + kind + `"}`)}})
}

// testWaitKinds: waits are a kind with its own state. The rules the
// database keeps are per kind: a session holds one OPEN wait resumed by a
// reply, however many resumed by a decision; the turn reads only the
// former; listings are by kind; and a wait has exactly one outcome.
func testWaitKinds(t *testing.T, e *env) {
	s := e.shared
	ctx := t.Context()
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	later := now().Add(time.Hour)

	r1, _ := tn.start(t, sess.ID, "refund me")
	must(t, pauseKind(t, s, r1, "approval", vocab.ResumeOnDecision, approvalState, later))
	st, err := s.TurnState(ctx, tn.ws, sess.ID, now())
	must(t, err)
	if st.HasWait {
		t.Errorf("the turn read a wait resumed by a decision as the open question: %s", str(st.Wait))
	}
	if _, _, err := s.OpenWait(ctx, tn.ws, sess.ID, now()); !wantIs(err, store.ErrNotFound) {
		t.Errorf("OpenWait with only an approval pending: %v, want ErrNotFound", err)
	}

	// A question may be open beside a pending approval, and only one.
	r2, _ := tn.start(t, sess.ID, "and a question")
	must(t, pauseKind(t, s, r2, KindQuestion, vocab.ResumeOnReply, freeTextState, later))
	r3, _ := tn.start(t, sess.ID, "another")
	wantErr(t, "a second open question", pauseKind(t, s, r3, KindQuestion, vocab.ResumeOnReply, freeTextState, later), store.ErrWaitExists)
	// A second approval does not count against the one open question.
	r4, _ := tn.start(t, sess.ID, "a second refund")
	must(t, pauseKind(t, s, r4, "approval", vocab.ResumeOnDecision, approvalState, later))

	st, err = s.TurnState(ctx, tn.ws, sess.ID, now())
	must(t, err)
	if !st.HasWait || st.Wait.Kind != KindQuestion || st.Wait.RunID != r2.ID || string(st.Wait.State) != freeTextState ||
		string(st.Snapshot) != `{"k":"await_reply"}` {
		t.Errorf("TurnState's open question = %s (snapshot %s)", str(st.Wait), st.Snapshot)
	}
	approvals, err := s.PendingWaits(ctx, tn.ws, 0, "approval", now())
	must(t, err)
	if len(approvals) != 2 || approvals[0].RunID != r1.ID || approvals[1].RunID != r4.ID ||
		approvals[0].ResumeOn != vocab.ResumeOnDecision || !bytes.Equal(approvals[0].State, []byte(approvalState)) {
		t.Fatalf("pending approvals = %s", str(approvals))
	}
	questions, err := s.PendingWaits(ctx, tn.ws, sess.ID, KindQuestion, now())
	must(t, err)
	if len(questions) != 1 || questions[0].RunID != r2.ID {
		t.Errorf("pending questions = %s", str(questions))
	}
	if n, err := s.CountOpenWaits(ctx, now()); err != nil || n < 3 {
		t.Errorf("CountOpenWaits = %d, %v; want at least this session's 3", n, err)
	}

	// One decision per approval: the first close wins, a second is refused
	// and changes nothing.
	decide := func(w store.Wait, status string) error {
		r, _ := tn.start(t, sess.ID, "")
		r.Status = vocab.RunCompleted
		return s.EndTurn(ctx, store.TurnEnd{Run: r, CloseWait: &store.WaitClose{WaitID: w.ID, Status: status}})
	}
	must(t, decide(approvals[0], vocab.WaitAnswered))
	wantErr(t, "deciding an approval twice", decide(approvals[0], vocab.WaitExpired), store.ErrConflict)
	left, err := s.PendingWaits(ctx, tn.ws, sess.ID, "approval", now())
	must(t, err)
	if len(left) != 1 || left[0].ID != approvals[1].ID {
		t.Errorf("approvals left after one decision = %s", str(left))
	}
	// Ending the session cancels every open wait, of every kind.
	must(t, s.EndSession(ctx, tn.ws, sess.ID))
	for _, kind := range []string{"approval", KindQuestion} {
		if w, err := s.PendingWaits(ctx, tn.ws, sess.ID, kind, now()); err != nil || len(w) != 0 {
			t.Errorf("%s waits after the session ended = %s, %v", kind, str(w), err)
		}
	}
}
