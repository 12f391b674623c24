package scenario

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Observed is what one turn did, as the runner saw it.
type Observed struct {
	Runs     []Run
	Messages []Message
	// SessionEnded says the turn ended the session.
	SessionEnded bool
}

// Run is one run of a turn.
type Run struct {
	ID        int64
	Status    string
	ErrorCode string
	Error     string
	Trace     []TraceRow
	// Vars is the run's context when it finished (a paused run's snapshot
	// included), decoded from JSON.
	Vars map[string]any
}

// TraceRow is the part of a trace row a scenario can check.
type TraceRow struct {
	NodeID     string
	NodeType   string
	Status     string
	ErrorClass string
	Error      string
}

// Message is one message the turn said.
type Message struct {
	Text string
	Mood string
}

// Session is one conversation a scenario runs in: a fresh session on a
// graph with the scenario's mocks, identity and clock applied.
type Session interface {
	// Send plays one turn: it applies the turn's identity and clock
	// advance, then sends its message (or decision).
	Send(ctx context.Context, t Turn) (Observed, error)
	Close()
}

// Opener opens the session a scenario runs in.
type Opener func(ctx context.Context, f *File) (Session, error)

// ErrDecisionOffline is returned for a turn with a decision: the approval
// node's executor does not run yet, so no run can be waiting for one.
var ErrDecisionOffline = errors.New("approval nodes cannot run offline yet, so a turn cannot script a decision")

// ErrWorkflowOffline is returned for a scenario naming a server's workflow.
var ErrWorkflowOffline = errors.New("a scenario naming a server's workflow needs a server to run the draft on, which wetel test cannot do yet; name a graph file")

// Result is how a scenario went.
type Result struct {
	File *File
	// Err is a scenario that could not be run (its graph would not load,
	// a turn could not be sent); its turns after the error did not run.
	Err   error
	Turns []TurnResult
	// Elapsed is how long it took, for the JUnit report.
	Elapsed time.Duration
}

// TurnResult is how one turn went: what happened and what differed.
type TurnResult struct {
	Index    int
	Turn     Turn
	Observed Observed
	// Problems are the expectations not met, each a readable paragraph.
	Problems []string
}

// Passed says every turn ran and met its expectations.
func (r *Result) Passed() bool {
	if r.Err != nil {
		return false
	}
	for _, t := range r.Turns {
		if len(t.Problems) > 0 {
			return false
		}
	}
	return true
}

// Play runs a scenario's turns in one session and judges each. A failed
// expectation does not stop the conversation: later turns still run, so
// one report shows every turn that differs.
func Play(ctx context.Context, f *File, open Opener, now func() time.Time) *Result {
	start := now()
	res := &Result{File: f}
	defer func() { res.Elapsed = now().Sub(start) }()
	if f.Workflow != "" {
		res.Err = ErrWorkflowOffline
		return res
	}
	s, err := open(ctx, f)
	if err != nil {
		res.Err = err
		return res
	}
	defer s.Close()
	for i, t := range f.Turns {
		if t.Decision != nil {
			res.Err = fmt.Errorf("turn %d (line %d): %w", i+1, t.Line, ErrDecisionOffline)
			return res
		}
		obs, err := s.Send(ctx, t)
		if err != nil {
			res.Err = fmt.Errorf("turn %d (line %d): %w", i+1, t.Line, err)
			return res
		}
		res.Turns = append(res.Turns, TurnResult{Index: i, Turn: t, Observed: obs, Problems: Judge(t.Expect, obs)})
	}
	return res
}
