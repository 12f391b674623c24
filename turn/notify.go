package turn

import (
	"context"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// notify leaves the owners' in-app notices a turn calls for: a failed run
// of a workflow whose notifyOnFailure is OWNERS, at most one per workflow
// per hour (seed 001; the database refuses a second notice of the same
// workflow and hour, however many runs fail at once), and a run that waits
// for an owner's decision. A notice is advice about a run whose record is
// already stored: failing to leave one does not fail the turn.
func (s *Service) notify(ctx context.Context, sess store.Session, wf store.Workflow, end store.TurnEnd) {
	r := end.Run
	at := s.Now()
	if r.FinishedAt != nil {
		at = *r.FinishedAt
	}
	switch {
	case r.Status == vocab.RunFailed && wf.NotifyOnFailure == store.NotifyOwners:
		_, _, _ = s.Store.AddNotification(ctx, store.Notification{WorkspaceID: sess.WorkspaceID, Kind: store.NoticeRunFailed,
			Key:        fmt.Sprintf("run-failed:%d:%s", wf.ID, at.UTC().Truncate(time.Hour).Format(time.RFC3339)),
			WorkflowID: wf.ID, SessionID: sess.ID, RunID: r.ID, CreatedAt: at,
			Text: fmt.Sprintf("Workflow %q failed (%s) in run %d of session %d; further failures of it this hour are not announced.", wf.Name, r.ErrorCode, r.ID, sess.ID)})
	case end.Pause != nil && end.Pause.Wait.ResumeOn == vocab.ResumeOnDecision:
		_, _, _ = s.Store.AddNotification(ctx, store.Notification{WorkspaceID: sess.WorkspaceID, Kind: store.NoticeApproval,
			WorkflowID: wf.ID, SessionID: sess.ID, RunID: r.ID, CreatedAt: at,
			Text: fmt.Sprintf("Run %d of session %d waits for an owner's decision at node %q (pendingApprovals).", r.ID, sess.ID, end.Pause.Wait.NodeID)})
	}
}
