package turn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// ErrDecided is returned for a decision on a wait that already has its
// outcome (decided, expired, cancelled): nothing was written.
var ErrDecided = errors.New("the wait already has its outcome")

// ErrNotADecision is returned for a decision on a wait the session's next
// message answers (an await_reply question): only the user answers it.
var ErrNotADecision = errors.New("the wait is a question for the user, not a decision")

// decision is the wait a decision turn resumes, and the decision.
type decision struct {
	wait     store.Wait
	snapshot json.RawMessage
	d        node.Decision
}

// Decide resumes a wait that takes a decision (an approval): its run's
// continuation is a new run, serialized with the session's other turns,
// whose resumedFromRunId names the paused run, entered down the edge the
// wait's node type names for the decision. The wait gets its one outcome
// in the transaction that starts that run, so of racing decisions one
// wins and the rest get ErrDecided, writing nothing.
func (s *Service) Decide(ctx context.Context, ws, waitID int64, d node.Decision) (TurnResult, error) {
	w, snap, err := s.Store.WaitByID(ctx, ws, waitID)
	if err != nil {
		return TurnResult{}, err
	}
	if w.ResumeOn != vocab.ResumeOnDecision {
		return TurnResult{}, ErrNotADecision
	}
	if w.Status != vocab.WaitOpen {
		return TurnResult{}, fmt.Errorf("wait %d is %s: %w", w.ID, w.Status, ErrDecided)
	}
	if !w.ExpiresAt.IsZero() && !s.Now().Before(w.ExpiresAt) {
		return TurnResult{}, fmt.Errorf("wait %d expired at %s: %w", w.ID, w.ExpiresAt.Format("2006-01-02 15:04:05Z07:00"), ErrDecided)
	}
	return s.serialized(ctx, ws, w.SessionID, "", turnKind{task: true, decision: &decision{wait: w, snapshot: snap, d: d}})
}
