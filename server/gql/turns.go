package gql

import (
	"context"

	"github.com/wetel/wetel/turn"
)

// turnResult shapes a finished turn and publishes its closing events.
func (r *Resolver) turnResult(ctx context.Context, c Caller, sessionID int, res turn.TurnResult, err error) (*Turn, error) {
	if r.Publish != nil && err == nil {
		r.Publish(ctx, c.WorkspaceID, int64(sessionID), res)
	}
	if err != nil {
		return nil, storeErr(err, "session", sessionID)
	}
	if len(res.Runs) == 0 && res.UserMessage.ID != 0 {
		// The message was stored and nothing ran: the agent is not ready.
		r.warnNotReady(ctx, c, sessionID)
	}
	out := &Turn{Runs: mapList(res.Runs, toRun), Messages: mapList(res.Messages, toMessage)}
	if res.UserMessage.ID != 0 {
		out.UserMessage = toMessage(res.UserMessage)
	}
	return out, nil
}
