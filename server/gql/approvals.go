package gql

import (
	"context"
	"errors"
	"fmt"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/approval"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
)

// decide runs a decision on one of the caller's workspace's waits.
func (r *Resolver) decide(ctx context.Context, c Caller, id int64, d node.Decision) (*Turn, error) {
	w, _, err := r.Store.WaitByID(ctx, c.WorkspaceID, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound("approval", int(id))
	}
	if err != nil {
		return nil, err
	}
	if w.Kind != approval.Kind {
		return nil, Errorf(CodeValidation, "wait %d is not an approval; only the user answers a question", id)
	}
	res, err := r.Turns.Decide(ctx, c.WorkspaceID, id, d)
	switch {
	case errors.Is(err, turn.ErrDecided):
		return nil, Errorf(CodeConflict, "approval %d was already decided, has expired or was cancelled; nothing was changed", id)
	case errors.Is(err, turn.ErrNotADecision):
		return nil, Errorf(CodeValidation, "wait %d is not an approval; only the user answers a question", id)
	}
	return r.turnResult(ctx, c, int(w.SessionID), res, err)
}

// keyName names the caller's key for decidedBy: its name, else its id.
func (r *Resolver) keyName(ctx context.Context, c Caller) string {
	keys, err := r.Store.APIKeys(ctx, c.WorkspaceID)
	if err == nil {
		for _, k := range keys {
			if k.ID == c.KeyID && k.Name != "" {
				return k.Name
			}
		}
	}
	return fmt.Sprintf("API key %d", c.KeyID)
}

// toApproval shows a pending approval: the prompt as its state holds it.
func toApproval(w store.Wait) (PendingApproval, error) {
	st, err := approval.DecodeState(w.State)
	if err != nil {
		return PendingApproval{}, fmt.Errorf("wait %d: %w", w.ID, err)
	}
	out := PendingApproval{ID: int(w.ID), SessionID: int(w.SessionID), RunID: int(w.RunID), NodeID: w.NodeID,
		Prompt: st.Prompt, CreatedAt: w.CreatedAt}
	if !w.ExpiresAt.IsZero() {
		t := w.ExpiresAt
		out.ExpiresAt = &t
	}
	return out, nil
}
