package turn_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// TestReplyRacingSessionChange sends the answer to an open question at the
// same instant as a session change that cancels the question (identity set
// to none, or the session ended), 100 rounds each. The rule: a message is
// acknowledged exactly when it is stored; the wait has one outcome; no run
// is left RUNNING.
func TestReplyRacingSessionChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t, askRole)
	ctx := context.Background()
	for round := range 200 {
		ending := round%2 == 1
		s := f.session(t)
		if err := f.st.SetIdentity(ctx, f.ws, s.ID, "ann"); err != nil {
			t.Fatal(err)
		}
		first := f.send(t, s, "hello")
		if first.Runs[0].Status != vocab.RunAwaitingInput {
			t.Fatalf("round %d: turn 1 %+v", round, first.Runs[0])
		}
		var wg sync.WaitGroup
		var res turn.TurnResult
		var sendErr, changeErr error
		gate := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-gate
			res, sendErr = f.svc.Send(ctx, f.ws, s.ID, "2")
		}()
		go func() {
			defer wg.Done()
			<-gate
			if ending {
				changeErr = f.st.EndSession(ctx, f.ws, s.ID)
			} else {
				changeErr = f.st.SetIdentity(ctx, f.ws, s.ID, "")
			}
		}()
		close(gate)
		wg.Wait()
		if changeErr != nil {
			t.Fatal(changeErr)
		}
		msgs, err := f.st.Messages(ctx, f.ws, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		users := 0
		for _, m := range msgs {
			if m.Role == "user" {
				users++
			}
		}
		switch {
		case sendErr == nil:
			if users != 2 || res.UserMessage.ID == 0 {
				t.Fatalf("round %d: an acknowledged reply: %d user messages stored, id %d", round, users, res.UserMessage.ID)
			}
		case ending && errors.Is(sendErr, turn.ErrSessionEnded):
			if users != 1 {
				t.Fatalf("round %d: a refused reply was stored (%d user messages)", round, users)
			}
		default:
			t.Fatalf("round %d (ending %v): Send: %v", round, ending, sendErr)
		}
		runs, err := f.st.RunsBySession(ctx, f.ws, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if r.Status == vocab.RunRunning {
				t.Fatalf("round %d: run %d left RUNNING", round, r.ID)
			}
		}
	}
}
