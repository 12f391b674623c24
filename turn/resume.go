package turn

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// Resume runs one in-memory turn that answers the question paused left
// open (a run of this Runner that ended with a Pause), as Service does for
// a stored session: the paused node's type resumes the wait with text, and
// the run continues from the edge it names with { ...snapshot,
// ...freshTurnFacts, ...answer } (seed 000). Nothing expires in memory.
// reg is the registry the plan was compiled with; it names the Resume
// hook of the wait's kind.
func (r *Runner) Resume(ctx context.Context, s *Session, reg *node.Registry, paused *engine.Result, text string) (Result, error) {
	if paused == nil || paused.Pause == nil {
		return Result{}, fmt.Errorf("resume: the run did not pause")
	}
	p := paused.Pause
	spec, ok := reg.Lookup(p.Kind)
	if !ok || spec.Resume == nil {
		return Result{}, fmt.Errorf("cannot resume the run paused at node %q: no node type %q resumes its wait", paused.PausedAt, p.Kind)
	}
	next, err := spec.Resume(ctx, node.ResumeInput{NodeID: paused.PausedAt, State: p.State, Event: node.ResumeReply, Text: text, Now: time.Now()})
	if err != nil {
		return Result{}, fmt.Errorf("cannot resume the run paused at node %q: %w", paused.PausedAt, err)
	}
	now := time.Now()
	if next.EndSession {
		// The pause ends the session (end_session's confirmation): nothing runs.
		s.Transcript = append(s.Transcript, store.Message{Role: "user", Text: text})
		s.Status = store.SessionEnded
		r.lastRunID++
		done := &engine.Result{RunID: r.lastRunID, Status: vocab.RunCompleted, SessionEnded: true, StartedAt: now, FinishedAt: now}
		return Result{Message: text, Runs: []*engine.Result{done}}, nil
	}
	entry, err := r.Plan.ResumeTargets(p.Kind, paused.PausedAt, next.Label)
	if err != nil && next.Optional && r.Plan.Has(paused.PausedAt) {
		// The type lets the edge be missing: the turn ends with nothing run.
		s.Transcript = append(s.Transcript, store.Message{Role: "user", Text: text})
		r.lastRunID++
		done := &engine.Result{RunID: r.lastRunID, Status: vocab.RunCompleted, StartedAt: now, FinishedAt: now}
		return Result{Message: text, Runs: []*engine.Result{done}}, nil
	}
	if err != nil {
		return Result{}, err
	}
	vars := map[string]any{}
	if err := json.Unmarshal(p.Snapshot, &vars); err != nil || vars == nil {
		vars = map[string]any{}
	}
	for k, v := range facts(s.Session, s.Transcript, text, false) {
		vars[k] = v
	}
	for k, v := range next.Vars {
		vars[k] = v
	}
	r.lastRunID++
	s.Transcript = append(s.Transcript, store.Message{Role: "user", Text: text})
	res := r.Engine.Run(ctx, r.Plan, engine.Input{RunID: r.lastRunID, Vars: vars, Entry: entry, Mock: r.Mock, Observer: r.Observer, Services: r.Services})
	msgs := replies(res.Messages, res.Status == vocab.RunFailed, r.FailureResponse)
	for _, m := range msgs {
		s.Transcript = append(s.Transcript, store.Message{Role: "assistant", Text: m.Text})
	}
	if res.SessionEnded {
		s.Status = store.SessionEnded
	}
	return Result{Message: text, Runs: []*engine.Result{res}, Messages: msgs}, nil
}
