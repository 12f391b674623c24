package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// testClaimWait: the turn that answers a question gives its wait the
// outcome as it starts; a turn that finds the wait already closed starts a
// fresh run; a turn in an ended session stores nothing.
func testClaimWait(t *testing.T, e *env) {
	s := e.shared
	ctx := t.Context()
	tn := newTenant(t, s)
	sess := tn.session(t, "ann")
	r1, _ := tn.start(t, sess.ID, "hi")
	tn.pause(t, r1, now().Add(time.Hour))
	st, err := s.TurnState(ctx, tn.ws, sess.ID, now())
	must(t, err)

	answer := tn.turnStart(sess.ID, "large")
	answer.Run.ResumedFromRunID = r1.ID
	answer.Claim = &store.WaitClaim{WaitID: st.Wait.ID, Status: vocab.WaitAnswered}
	r2, _, err := s.StartTurn(ctx, answer)
	must(t, err)
	if !answer.Claim.Won || r2.ResumedFromRunID != r1.ID {
		t.Fatalf("claiming an open wait: won %v, resumed from %d", answer.Claim.Won, r2.ResumedFromRunID)
	}
	if st, err := s.TurnState(ctx, tn.ws, sess.ID, now()); err != nil || st.HasWait {
		t.Fatalf("the claimed wait is still open: %+v, %v", st.Wait, err)
	}

	// The same claim again loses: the run is stored as a fresh one.
	again := tn.turnStart(sess.ID, "large again")
	again.Run.ResumedFromRunID = r1.ID
	again.Claim = &store.WaitClaim{WaitID: st.Wait.ID, Status: vocab.WaitAnswered}
	r3, m3, err := s.StartTurn(ctx, again)
	must(t, err)
	if again.Claim.Won || r3.ResumedFromRunID != 0 || m3.ID == 0 {
		t.Fatalf("a second claim: won %v, resumed from %d, message %d", again.Claim.Won, r3.ResumedFromRunID, m3.ID)
	}

	// A required claim that loses writes nothing: a second decision.
	before, err := s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	runsBefore, err := s.RunsBySession(ctx, tn.ws, sess.ID)
	must(t, err)
	decided := tn.turnStart(sess.ID, "")
	decided.Message = store.Message{}
	decided.Claim = &store.WaitClaim{WaitID: st.Wait.ID, Status: vocab.WaitAnswered, Required: true}
	_, _, err = s.StartTurn(ctx, decided)
	wantErr(t, "a required claim on a closed wait", err, store.ErrConflict)
	after, err := s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	runsAfter, err := s.RunsBySession(ctx, tn.ws, sess.ID)
	must(t, err)
	if len(after) != len(before) || len(runsAfter) != len(runsBefore) || decided.Claim.Won {
		t.Errorf("a lost required claim wrote: %d→%d messages, %d→%d runs", len(before), len(after), len(runsBefore), len(runsAfter))
	}
	// The closed wait still reads by id, with its outcome and snapshot.
	w, snap, err := s.WaitByID(ctx, tn.ws, st.Wait.ID)
	must(t, err)
	if w.Status != vocab.WaitAnswered || w.RunID != r1.ID || len(snap) == 0 || w.Kind != KindQuestion {
		t.Errorf("WaitByID = %s, snapshot %s", str(w), snap)
	}
	other := newTenant(t, s)
	_, _, err = s.WaitByID(ctx, other.ws, st.Wait.ID)
	wantErr(t, "another workspace's wait", err, store.ErrNotFound)

	wantErr(t, "a bad claim status", func() error {
		bad := tn.turnStart(sess.ID, "x")
		bad.Claim = &store.WaitClaim{WaitID: st.Wait.ID, Status: vocab.WaitOpen}
		_, _, err := s.StartTurn(ctx, bad)
		return err
	}(), store.ErrInvalid)

	must(t, s.EndSession(ctx, tn.ws, sess.ID))
	before, err = s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	_, _, err = s.StartTurn(ctx, tn.turnStart(sess.ID, "too late"))
	wantErr(t, "a turn in an ended session", err, store.ErrSessionEnded)
	after, err = s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	if len(after) != len(before) {
		t.Errorf("a refused turn stored its message: %d messages, then %d", len(before), len(after))
	}
}

// testPauseInEndedSession: a run whose session ended while it ran leaves
// no open wait behind it (seed 000: ending the session cancels any open
// wait "on every path that ends one").
func testPauseInEndedSession(t *testing.T, e *env) {
	s := e.shared
	ctx := t.Context()
	tn := newTenant(t, s)
	sess := tn.session(t, "")
	r, _ := tn.start(t, sess.ID, "hi")
	must(t, s.EndSession(ctx, tn.ws, sess.ID))
	tn.pause(t, r, now().Add(time.Hour))
	if w, err := s.PendingWaits(ctx, tn.ws, sess.ID, KindQuestion, now()); err != nil || len(w) != 0 {
		t.Errorf("open waits in an ended session: %s, %v", str(w), err)
	}
	if got, err := s.Run(ctx, tn.ws, r.ID); err != nil || got.Status != vocab.RunAwaitingInput {
		t.Errorf("the run: %s, %v", str(got), err)
	}
}

// testClaimRacesSessionChange races the reply to an open question against
// a session change that cancels it (setSessionIdentity, endSession), 100
// times each. Every round ends with one outcome for the wait, agreeing with
// the run: ANSWERED exactly when a run resumed from it; a message stored
// exactly when its turn started; and no run left RUNNING once turns end.
func testClaimRacesSessionChange(t *testing.T, e *env) {
	s := e.shared
	ctx := t.Context()
	tn := newTenant(t, s)
	for round := range 200 {
		ending := round%2 == 1
		sess := tn.session(t, "ann")
		first, _ := tn.start(t, sess.ID, "hi")
		tn.pause(t, first, now().Add(time.Hour))
		st, err := s.TurnState(ctx, tn.ws, sess.ID, now())
		must(t, err)
		reply := tn.turnStart(sess.ID, "large")
		reply.Run.ResumedFromRunID = first.ID
		reply.Claim = &store.WaitClaim{WaitID: st.Wait.ID, Status: vocab.WaitAnswered}

		var wg sync.WaitGroup
		var run store.Run
		var startErr, changeErr error
		gate := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-gate
			run, _, startErr = s.StartTurn(ctx, reply)
		}()
		go func() {
			defer wg.Done()
			<-gate
			if ending {
				changeErr = s.EndSession(ctx, tn.ws, sess.ID)
			} else {
				changeErr = s.SetIdentity(ctx, tn.ws, sess.ID, "")
			}
		}()
		close(gate)
		wg.Wait()
		must(t, changeErr)
		msgs, err := s.Messages(ctx, tn.ws, sess.ID)
		must(t, err)
		switch {
		case startErr == nil:
			if len(msgs) != 3 {
				t.Fatalf("round %d: a started turn: %d messages, want 3", round, len(msgs))
			}
			run.Status = vocab.RunCompleted
			must(t, s.EndTurn(ctx, store.TurnEnd{Run: run}))
		case ending && wantIs(startErr, store.ErrSessionEnded):
			if len(msgs) != 2 || reply.Claim.Won {
				t.Fatalf("round %d: a refused turn left %d messages, claim won %v", round, len(msgs), reply.Claim.Won)
			}
		default:
			t.Fatalf("round %d: StartTurn: %v", round, startErr)
		}
		waits, err := s.PendingWaits(ctx, tn.ws, sess.ID, KindQuestion, now())
		must(t, err)
		if len(waits) != 0 {
			t.Fatalf("round %d: the wait is still open after the race: %s", round, str(waits))
		}
		runs, err := s.RunsBySession(ctx, tn.ws, sess.ID)
		must(t, err)
		resumed := false
		for _, r := range runs {
			if r.Status == vocab.RunRunning {
				t.Fatalf("round %d: run %d left RUNNING", round, r.ID)
			}
			resumed = resumed || r.ResumedFromRunID == first.ID
		}
		if resumed != reply.Claim.Won {
			t.Fatalf("round %d: a run resumed from the wait: %v; the claim won: %v", round, resumed, reply.Claim.Won)
		}
	}
}
