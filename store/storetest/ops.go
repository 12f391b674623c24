package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// testRecoverRuns uses a store of its own: RecoverRuns reaches every
// workspace, and would fail the shared store's running turns.
func testRecoverRuns(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.fresh(t)
	a, b := newTenant(t, s), newTenant(t, s)
	sa, sb := a.session(t, ""), b.session(t, "")
	r1, _ := a.start(t, sa.ID, "one")
	r2, _ := a.start(t, sa.ID, "two")
	must(t, s.EndTurn(ctx, store.TurnEnd{Run: withStatus(r2, vocab.RunCompleted)}))
	r3, _ := b.start(t, sb.ID, "three")

	n, err := s.RecoverRuns(ctx, "the process stopped")
	must(t, err)
	if n != 2 {
		t.Errorf("RecoverRuns = %d, want 2", n)
	}
	for _, c := range []struct {
		ws, id int64
	}{{a.ws, r1.ID}, {b.ws, r3.ID}} {
		got, err := s.Run(ctx, c.ws, c.id)
		must(t, err)
		if got.Status != vocab.RunFailed || got.Error != "the process stopped" ||
			got.ErrorCode != "PROCESS_STOPPED" || got.FinishedAt == nil {
			t.Errorf("recovered run = %s", str(got))
		}
	}
	got, err := s.Run(ctx, a.ws, r2.ID)
	must(t, err)
	if got.Status != vocab.RunCompleted || got.Error != "" {
		t.Errorf("a finished run was recovered: %s", str(got))
	}
	n, err = s.RecoverRuns(ctx, "again")
	must(t, err)
	if n != 0 {
		t.Errorf("second RecoverRuns = %d, want 0", n)
	}
	err = s.EndTurn(ctx, store.TurnEnd{Run: withStatus(r1, vocab.RunCompleted)})
	wantErr(t, "ending a recovered run", err, store.ErrConflict)
}

// testTimes stores times of another zone with nanoseconds: they come back
// in UTC, within a millisecond.
func testTimes(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	zone := time.FixedZone("UTC+5:30", 5*3600+1800)
	base := time.Date(2031, 2, 28, 23, 59, 59, 123_456_789, zone)
	sess, err := s.CreateSession(ctx, store.Session{WorkspaceID: tn.ws, AgentID: tn.agent, CreatedAt: base})
	must(t, err)
	ts := tn.turnStart(sess.ID, "hi")
	ts.Run.StartedAt, ts.Message.CreatedAt = base.Add(time.Millisecond), base.Add(2*time.Millisecond)
	r, _, err := s.StartTurn(ctx, ts)
	must(t, err)
	finished := base.Add(3 * time.Millisecond)
	te := pauseEnd(r, base.Add(time.Hour), nil)
	te.Run.FinishedAt = &finished
	te.Messages[0].CreatedAt = base.Add(4 * time.Millisecond)
	te.Pause.Wait.CreatedAt = base.Add(5 * time.Millisecond)
	must(t, s.EndTurn(ctx, te))

	gotSess, err := s.Session(ctx, tn.ws, sess.ID)
	must(t, err)
	gotRun, err := s.Run(ctx, tn.ws, r.ID)
	must(t, err)
	msgs, err := s.Messages(ctx, tn.ws, sess.ID)
	must(t, err)
	w, _, err := s.OpenWait(ctx, tn.ws, sess.ID, base)
	must(t, err)
	if gotRun.FinishedAt == nil || len(msgs) != 2 {
		t.Fatalf("run %s, messages %s", str(gotRun), str(msgs))
	}
	for _, c := range []struct {
		name      string
		want, got time.Time
	}{
		{"session created", base, gotSess.CreatedAt},
		{"run started", ts.Run.StartedAt, gotRun.StartedAt},
		{"message created", ts.Message.CreatedAt, msgs[0].CreatedAt},
		{"run finished", finished, *gotRun.FinishedAt},
		{"reply created", te.Messages[0].CreatedAt, msgs[1].CreatedAt},
		{"wait created", te.Pause.Wait.CreatedAt, w.CreatedAt},
		{"wait expires", te.Pause.Wait.ExpiresAt, w.ExpiresAt},
	} {
		if !sameTime(c.want, c.got) {
			t.Errorf("%s: stored %v, read back %v (want UTC, within 1ms)", c.name, c.want, c.got)
		}
	}
}

// testConcurrentTurns runs whole conversations from many goroutines at
// once, with readers alongside; run it under -race.
func testConcurrentTurns(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	const workers, turns = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- conversation(t, tn, turns)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// conversation is one session's turns: each answers the last question and
// asks the next.
func conversation(t *testing.T, tn *tenant, turns int) error {
	ctx := t.Context()
	s := tn.s
	sess, err := s.CreateSession(ctx, store.Session{WorkspaceID: tn.ws, AgentID: tn.agent})
	if err != nil {
		return err
	}
	for i := range turns {
		r, _, err := s.StartTurn(ctx, tn.turnStart(sess.ID, fmt.Sprint("turn ", i)))
		if err != nil {
			return err
		}
		var closeWait *store.WaitClose
		if i > 0 {
			w, _, err := s.OpenWait(ctx, tn.ws, sess.ID, time.Now())
			if err != nil {
				return fmt.Errorf("turn %d: %w", i, err)
			}
			closeWait = &store.WaitClose{WaitID: w.ID, Status: vocab.WaitAnswered}
		}
		if err := s.EndTurn(ctx, pauseEnd(r, time.Now().Add(time.Hour), closeWait)); err != nil {
			return fmt.Errorf("turn %d: %w", i, err)
		}
		if _, err := s.PendingWaits(ctx, tn.ws, 0, KindQuestion, time.Now()); err != nil {
			return err
		}
	}
	msgs, err := s.Messages(ctx, tn.ws, sess.ID)
	if err != nil {
		return err
	}
	runs, err := s.RunsBySession(ctx, tn.ws, sess.ID)
	if err != nil {
		return err
	}
	if len(msgs) != 2*turns || len(runs) != turns {
		return fmt.Errorf("session %d: %d messages and %d runs, want %d and %d",
			sess.ID, len(msgs), len(runs), 2*turns, turns)
	}
	return nil
}

// testClose closes a store of its own: calls after Close fail, and a second
// Close does no harm.
func testClose(t *testing.T, e *env) {
	s := e.open(t)
	ws, err := s.CreateWorkspace(t.Context(), "doomed")
	must(t, err)
	must(t, s.Close())
	if _, err := s.Workspace(t.Context(), ws.ID); err == nil {
		t.Error("Workspace succeeded after Close")
	}
	if _, err := s.CreateWorkspace(t.Context(), "late"); err == nil {
		t.Error("CreateWorkspace succeeded after Close")
	}
	_ = s.Close()
}
