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
	"github.com/wetel/wetel/vocab"
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
// benchmarks, embedding and exploring a graph's paths. Send always starts
// a fresh run; a question ends its run AWAITING_INPUT, and Resume answers
// it with the next message.
type Runner struct {
	Engine          *engine.Engine
	Plan            *engine.Plan
	Mock            bool
	FailureResponse string
	Observer        engine.Observer
	// Services are the outside systems runs may call; nil for none.
	Services *node.Services
	// Agent is the agent the runs speak for (persona, default model).
	Agent     node.Agent
	lastRunID int64
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
	vars := facts(s.Session, s.Transcript, text, false)
	s.Transcript = append(s.Transcript, store.Message{Role: "user", Text: text})
	res := r.Engine.Run(ctx, r.Plan, engine.Input{RunID: r.lastRunID, Vars: vars, Mock: r.Mock, Observer: r.Observer, Services: r.Services, Agent: r.Agent})
	msgs := replies(res.Messages, res.Status == vocab.RunFailed, r.FailureResponse)
	for _, m := range msgs {
		s.Transcript = append(s.Transcript, store.Message{Role: "assistant", Text: m.Text})
	}
	if res.SessionEnded {
		s.Status = store.SessionEnded
	}
	return Result{Message: text, Runs: []*engine.Result{res}, Messages: msgs}
}

// replies is what the user is told at the end of a turn: what the run said,
// then, when it failed, the workflow's failureResponse or the standard reply,
// with turnComplete on the last message (PLATFORM §4). The failure reply is
// appended to a copy, so said's backing array never gains an element.
func replies(said []node.Message, failed bool, failureResponse string) []node.Message {
	out := said
	if failed {
		if failureResponse == "" {
			failureResponse = DefaultFailureResponse
		}
		out = append(said[:len(said):len(said)], node.Message{Text: failureResponse})
	}
	if len(out) > 0 {
		out[len(out)-1].TurnComplete = true
	}
	return out
}
