// Package turn runs one inbound message through a workflow: it seeds the
// run's context with the turn facts, runs the plan, and shapes what the user
// is told (the standard failure reply, turnComplete on the last message).
// Service does it for stored sessions; Runner does it in memory.
package turn

import (
	"context"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
)

// DefaultFailureResponse is what the user is told when a run fails and the
// workflow sets no failureResponse of its own.
const DefaultFailureResponse = "Sorry, I ran into a problem"

// Session is a conversation kept in memory: its row and its transcript, the
// only thing that persists between turns by default.
type Session struct {
	store.Session
	Transcript []store.Message
}

// Runner runs turns of one workflow in memory, with no store: for
// benchmarks and embedding. It does not pause; a question ends the run
// AWAITING_INPUT and the next message starts afresh.
type Runner struct {
	Engine          *engine.Engine
	Plan            *engine.Plan
	Mock            bool
	FailureResponse string
	Observer        engine.Observer
	lastRunID       int64
}

// Result is what one in-memory turn did.
type Result struct {
	Message  string
	Runs     []*engine.Result
	Messages []node.Message
}

// Send runs one turn (seed: "Every inbound message triggers a brand-new run,
// starting at your workflow's start node").
func (r *Runner) Send(ctx context.Context, s *Session, text string) Result {
	r.lastRunID++
	vars := facts(s.Session, s.Transcript, text)
	s.Transcript = append(s.Transcript, store.Message{Role: "user", Text: text})
	res := r.Engine.Run(ctx, r.Plan, engine.Input{RunID: r.lastRunID, Vars: vars, Mock: r.Mock, Observer: r.Observer})
	msgs := res.Messages
	if res.Status == engine.RunFailed {
		reply := r.FailureResponse
		if reply == "" {
			reply = DefaultFailureResponse
		}
		msgs = append(msgs, node.Message{Text: reply})
	}
	if len(msgs) > 0 {
		// PLATFORM §4: turnComplete is true on the last message of a turn.
		msgs[len(msgs)-1].TurnComplete = true
	}
	for _, m := range msgs {
		s.Transcript = append(s.Transcript, store.Message{Role: "assistant", Text: m.Text})
	}
	if res.SessionEnded {
		s.Status = store.SessionEnded
	}
	return Result{Message: text, Runs: []*engine.Result{res}, Messages: msgs}
}
