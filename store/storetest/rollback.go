package storetest

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// testEndTurnRollsBack fails an EndTurn at its last step and checks that
// none of its earlier steps were written.
func testEndTurnRollsBack(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	for _, c := range []struct {
		name   string
		end    func(run store.Run, closed, open int64) store.TurnEnd
		target error
	}{
		{"pause while a wait is open", func(run store.Run, _, _ int64) store.TurnEnd {
			te := pauseEnd(run, now().Add(time.Hour), nil)
			te.Run.NodeTrace = json.RawMessage(`["x"]`)
			return te
		}, store.ErrWaitExists},
		{"closing a closed wait, ending the session", func(run store.Run, closed, _ int64) store.TurnEnd {
			return store.TurnEnd{Run: withStatus(run, vocab.RunCompleted),
				Messages:   []store.Message{{Role: "assistant", Text: "bye"}},
				CloseWait:  &store.WaitClose{WaitID: closed, Status: vocab.WaitAnswered},
				EndSession: true}
		}, store.ErrConflict},
		{"second message of another session", func(run store.Run, _, open int64) store.TurnEnd {
			return store.TurnEnd{Run: withStatus(run, vocab.RunCompleted),
				CloseWait: &store.WaitClose{WaitID: open, Status: vocab.WaitAnswered},
				Messages: []store.Message{{Role: "assistant", Text: "ok"},
					{SessionID: run.SessionID + 1_000_000, Role: "assistant", Text: "stray"}}}
		}, store.ErrNotFound},
	} {
		ctx := t.Context()
		sess := tn.session(t, "")
		r0, _ := tn.start(t, sess.ID, "one")
		tn.pause(t, r0, now().Add(time.Hour))
		closed := openWaitID(ctx, t, s, tn.ws, sess.ID)
		r1, _ := tn.start(t, sess.ID, "two")
		must(t, s.EndTurn(ctx, pauseEnd(r1, now().Add(time.Hour),
			&store.WaitClose{WaitID: closed, Status: vocab.WaitAnswered})))
		open := openWaitID(ctx, t, s, tn.ws, sess.ID)
		run, _ := tn.start(t, sess.ID, "three")
		msgsBefore, err := s.Messages(ctx, tn.ws, sess.ID)
		must(t, err)

		wantErr(t, c.name, s.EndTurn(ctx, c.end(run, closed, open)), c.target)

		got, err := s.Run(ctx, tn.ws, run.ID)
		must(t, err)
		if !reflect.DeepEqual(got, run) {
			t.Errorf("%s: run written: %s, was %s", c.name, str(got), str(run))
		}
		msgs, err := s.Messages(ctx, tn.ws, sess.ID)
		must(t, err)
		if !reflect.DeepEqual(msgs, msgsBefore) {
			t.Errorf("%s: messages written: %s", c.name, str(msgs[len(msgsBefore):]))
		}
		if id := openWaitID(ctx, t, s, tn.ws, sess.ID); id != open {
			t.Errorf("%s: open wait is %d, want %d still", c.name, id, open)
		}
		ss, err := s.Session(ctx, tn.ws, sess.ID)
		must(t, err)
		if ss.Status != store.SessionOpen || ss.EndedAt != nil {
			t.Errorf("%s: session ended: %s", c.name, str(ss))
		}
	}
}

func testEndTurnEndsSession(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	for _, closeIt := range []bool{false, true} {
		ctx := t.Context()
		sess := tn.session(t, "")
		r0, _ := tn.start(t, sess.ID, "hi")
		tn.pause(t, r0, now().Add(time.Hour))
		open := openWaitID(ctx, t, s, tn.ws, sess.ID)
		r1, _ := tn.start(t, sess.ID, "bye")
		finished := now()
		te := store.TurnEnd{Run: withStatus(r1, vocab.RunCompleted), EndSession: true,
			Messages: []store.Message{{Role: "assistant", Text: "Goodbye.", TurnComplete: true}}}
		te.Run.FinishedAt = &finished
		if closeIt {
			te.CloseWait = &store.WaitClose{WaitID: open, Status: vocab.WaitAnswered}
		}
		must(t, s.EndTurn(ctx, te))
		ss, err := s.Session(ctx, tn.ws, sess.ID)
		must(t, err)
		if ss.Status != store.SessionEnded || ss.EndedAt == nil || !sameTime(finished, *ss.EndedAt) {
			t.Errorf("close %v: session after EndSession = %s", closeIt, str(ss))
		}
		if id := openWaitID(ctx, t, s, tn.ws, sess.ID); id != 0 {
			t.Errorf("close %v: wait %d still open in an ended session", closeIt, id)
		}
		pending, err := s.PendingWaits(ctx, tn.ws, sess.ID, KindQuestion, now())
		must(t, err)
		if len(pending) != 0 {
			t.Errorf("close %v: pending waits in an ended session: %s", closeIt, str(pending))
		}
	}
}
