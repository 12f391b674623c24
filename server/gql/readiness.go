package gql

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/wetel/wetel/store"
)

// readiness is whether a message to an agent runs a workflow and, when it
// does not, why. Seed 001: a workflow "that's been updated but never
// published will not run for any session — there's no error, it simply
// never executes"; the agent still never runs, but the API says why.
func (r *Resolver) readiness(ctx context.Context, ws int64, agentID int64, workflowID *int) (string, error) {
	if workflowID == nil || *workflowID == 0 {
		return fmt.Sprintf("agent %d has no workflow attached: attach a published one with updateAgent(id: %d, input: {workflowId: …})", agentID, agentID), nil
	}
	w, err := r.Store.Workflow(ctx, ws, int64(*workflowID))
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Sprintf("agent %d's workflow %d does not exist: attach another with updateAgent", agentID, *workflowID), nil
	}
	if err != nil {
		return "", err
	}
	if w.PublishedVersion == 0 {
		return fmt.Sprintf("workflow %d (%q) attached to agent %d has never been published: messages are stored but nothing runs until publishWorkflow(id: %d)", w.ID, w.Name, agentID, w.ID), nil
	}
	return "", nil
}

// notReadyWarnings remembers the agents whose silent turn has been logged,
// so a busy agent that is not ready logs one line, not one per message.
type notReadyWarnings struct{ agents sync.Map }

// warnNotReady logs, once per agent, a message that ran no workflow
// because its agent is not ready: the operator sees why it never answers.
func (r *Resolver) warnNotReady(ctx context.Context, c Caller, sessionID int) {
	if r.Logger == nil {
		return
	}
	sess, err := r.Store.Session(ctx, c.WorkspaceID, int64(sessionID))
	if err != nil {
		return
	}
	key := [2]int64{c.WorkspaceID, sess.AgentID}
	if _, seen := r.notReady.agents.Load(key); seen {
		return
	}
	a, err := r.Store.Agent(ctx, c.WorkspaceID, sess.AgentID)
	if err != nil {
		return
	}
	var wf *int
	if a.WorkflowID != 0 {
		id := int(a.WorkflowID)
		wf = &id
	}
	reason, err := r.readiness(ctx, c.WorkspaceID, a.ID, wf)
	if err != nil || reason == "" {
		return
	}
	if _, seen := r.notReady.agents.LoadOrStore(key, true); seen {
		return
	}
	r.Logger.WarnContext(ctx, "a message reached an agent that is not ready: it was stored and no workflow ran",
		"workspace", c.WorkspaceID, "agent", a.ID, "session", sessionID, "reason", reason)
}
