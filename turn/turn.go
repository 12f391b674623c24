// Package turn runs one inbound message through a workflow: it seeds the
// run's context with the turn facts, runs the plan, and shapes what the user
// is told (the standard failure reply, turnComplete on the last message).
package turn

import (
	"context"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
)

// DefaultFailureResponse is what the user is told when a run fails and the
// workflow sets no failureResponse of its own.
const DefaultFailureResponse = "Sorry, I ran into a problem"

// Entry is one message of the transcript, as conversationHistory holds it.
type Entry struct {
	Role string `json:"role"` // "user" or "assistant"
	Text string `json:"text"`
}

// Session is a conversation as the offline runner keeps it: its ids and its
// transcript, the only thing that persists between turns by default.
type Session struct {
	ID               int64
	TenantID         int64
	AgentID          int64
	ClientExternalID string
	Channel          string
	Transcript       []Entry
	turns            int
	Ended            bool
}

// Runner runs turns of one workflow.
type Runner struct {
	Engine          *engine.Engine
	Plan            *engine.Plan
	Mock            bool
	FailureResponse string
	Observer        engine.Observer
	Secrets         []string
	lastRunID       int64
}

// Result is what one turn did.
type Result struct {
	Message  string
	Runs     []*engine.Result
	Messages []node.Message
}

// Send runs one turn: the message is in the transcript before the run starts,
// so conversationHistory includes it (seed: "Every inbound message triggers a
// brand-new run, starting at your workflow's start node").
func (r *Runner) Send(ctx context.Context, s *Session, text string) Result {
	s.turns++
	s.Transcript = append(s.Transcript, Entry{Role: "user", Text: text})
	r.lastRunID++
	res := r.Engine.Run(ctx, r.Plan, engine.Input{
		RunID: r.lastRunID, Vars: Facts(s, text), Mock: r.Mock, Observer: r.Observer, Secrets: r.Secrets,
	})
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
		s.Transcript = append(s.Transcript, Entry{Role: "assistant", Text: m.Text})
	}
	if res.SessionEnded {
		s.Ended = true
	}
	return Result{Message: text, Runs: []*engine.Result{res}, Messages: msgs}
}

// Facts builds a run's starting context from the turn facts (PLATFORM §3).
// Nothing an earlier run computed is carried.
func Facts(s *Session, text string) map[string]any {
	history := make([]any, len(s.Transcript))
	for i, e := range s.Transcript {
		history[i] = map[string]any{"role": e.Role, "text": e.Text}
	}
	vars := make(map[string]any, 24)
	vars["userMessage"] = text
	vars["conversationHistory"] = history
	vars["sessionId"] = s.ID
	vars["tenantId"] = s.TenantID
	vars["agentId"] = s.AgentID
	vars["turnIndex"] = s.turns - 1
	vars["clientExternalId"] = s.ClientExternalID
	if s.Channel != "" {
		vars["channel"] = s.Channel
	}
	return vars
}
