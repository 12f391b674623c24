package server

import (
	"context"
	"errors"

	"github.com/wetel/wetel/node/subagent"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// childSessions gives a workspace's sub_agent nodes their child sessions:
// each target a turn of its own in a new session of its agent.
type childSessions struct {
	turns *turn.Service
	ws    int64
}

// Dispatch runs one target. An agent of another workspace is the node's
// configuration error; anything the child did is its result.
func (c childSessions) Dispatch(ctx context.Context, r subagent.Request) (subagent.Result, error) {
	out, err := c.turns.RunChild(ctx, c.ws, r.ParentSessionID, r.AgentID, r.Text, r.Depth)
	if errors.Is(err, store.ErrNotFound) {
		return subagent.Result{}, errors.New("no such agent in this workspace")
	}
	res := subagent.Result{SessionID: out.SessionID, Output: out.Output}
	for _, m := range out.Messages {
		res.Messages = append(res.Messages, m.Text)
	}
	switch {
	case err != nil:
		res.Status, res.Error = subagent.StatusError, err.Error()
	case out.TimedOut:
		res.Status, res.Error = subagent.StatusTimeout, "the agent did not finish within timeoutMs"
	case out.Run.ID == 0:
		res.Status, res.Error = subagent.StatusError, "the agent's workflow is not published, so nothing ran"
	case out.Run.Status == vocab.RunCompleted:
		res.Status = subagent.StatusOK
	case out.Run.Status == vocab.RunFailed:
		res.Status, res.Error = subagent.StatusError, out.Run.Error
	default:
		// A child that paused (an approval) or was interrupted has no answer
		// to give: nobody answers a question in a child session.
		res.Status, res.Error = subagent.StatusError, "the agent's run ended "+out.Run.Status+" without an answer"
	}
	return res, nil
}
