package turn

import (
	"context"
	"fmt"
	"strings"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// ChildOutcome is what a child turn did, for the sub_agent dispatch that
// started it.
type ChildOutcome struct {
	SessionID int64
	// Run is the child's run; zero when its agent's workflow is not
	// published and nothing ran.
	Run      store.Run
	Messages []store.Message
	// Output is the variables the child's run wrote, without turn facts
	// and the engine's own (_…).
	Output map[string]any
	// TimedOut is set when ctx ended first: the child was interrupted
	// before its next dispatch and its turn ends on its own.
	TimedOut bool
}

// RunChild opens a child session of agent, parented by parentSessionID,
// and runs one turn in it with text, at depth (1 for a dispatch from a run
// a person started). It returns when that turn ends or ctx is done, and
// then interrupts the child, which stops before its next node and still
// stores its end. An agent that is not ws's own is ErrNotFound.
func (s *Service) RunChild(ctx context.Context, ws, parentSessionID, agentID int64, text string, depth int) (ChildOutcome, error) {
	if _, err := s.Store.Agent(ctx, ws, agentID); err != nil {
		return ChildOutcome{}, fmt.Errorf("agent %d: %w", agentID, err)
	}
	child, err := s.Store.CreateSession(ctx, store.Session{WorkspaceID: ws, AgentID: agentID,
		ParentSessionID: parentSessionID, Channel: "sub_agent"})
	if err != nil {
		return ChildOutcome{}, fmt.Errorf("opening a child session of agent %d: %w", agentID, err)
	}
	out := ChildOutcome{SessionID: child.ID}
	type ended struct {
		res TurnResult
		err error
	}
	done, halt := make(chan ended, 1), make(chan struct{})
	go func() {
		// The child's turn is not cancelled with ctx: it is interrupted, so
		// the node in flight finishes and the run's end is stored.
		res, err := s.serialized(context.WithoutCancel(ctx), ws, child.ID, text, turnKind{depth: depth, halt: halt})
		done <- ended{res, err}
	}()
	select {
	case e := <-done:
		if e.err != nil {
			return out, fmt.Errorf("the child session %d: %w", child.ID, e.err)
		}
		if len(e.res.Runs) > 0 {
			out.Run = e.res.Runs[0]
		}
		out.Messages, out.Output = e.res.Messages, e.res.output
		return out, nil
	case <-ctx.Done():
		close(halt)
		out.TimedOut = true
		return out, nil
	}
}

// interrupt stops the turn running in a session before its next dispatch.
func (s *Service) interrupt(sessionID int64) {
	s.mu.Lock()
	st := s.sessions[sessionID]
	s.mu.Unlock()
	if st == nil {
		return
	}
	st.mu.Lock()
	if st.interrupt != nil {
		close(st.interrupt)
		st.interrupt = nil
	}
	st.mu.Unlock()
}

// ownVars is a run's context without the turn facts and the engine's own
// variables: what the run itself wrote.
func ownVars(vars map[string]any) map[string]any {
	out := make(map[string]any, len(vars))
	for k, v := range vars {
		if !strings.HasPrefix(k, "_") {
			out[k] = v
		}
	}
	for _, f := range vocab.TurnFacts {
		delete(out, f)
	}
	return out
}
