package turn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// resumption is how this turn continues an open wait, if it does.
type resumption struct {
	wait    store.Wait
	vars    map[string]any
	entry   []string
	err     error // the stranded-wait error: the resume fails with it
	closeAs string
	// answer is what the Resume hook wrote, laid over the fresh turn facts.
	answer map[string]any
	// endSession: the resume ends the session, running nothing; nothing:
	// the resume has nowhere to go, and the turn ends there.
	endSession, nothing bool
}

func (s *Service) turn(ctx context.Context, ws, sessionID int64, text string, stop chan struct{}, kind turnKind) (TurnResult, error) {
	task := kind.task
	now := s.now().Now()
	// One read for everything the turn needs before it starts; of the
	// transcript, only what this Service has not read yet.
	cached, after := s.transcripts.since(ws, sessionID)
	state, err := s.Store.TurnStateSince(ctx, ws, sessionID, now, after)
	if err != nil {
		return TurnResult{}, fmt.Errorf("session %d: %w", sessionID, err)
	}
	sess, wf := state.Session, state.Workflow
	if sess.Status == store.SessionEnded {
		s.transcripts.forget(sessionID)
		return TurnResult{}, ErrSessionEnded
	}
	if sess.ParentSessionID != 0 && kind.depth == 0 {
		return TurnResult{}, ErrChildSession
	}
	history := s.transcripts.extend(ws, sessionID, cached, state.History)
	user := store.Message{WorkspaceID: ws, SessionID: sessionID, Role: "user", Text: text}
	if task {
		// A task says nothing in the transcript; the store writes no
		// message for an empty role.
		user = store.Message{}
		if wf.PublishedVersion == 0 {
			return TurnResult{}, nil
		}
	}
	if wf.PublishedVersion == 0 {
		// Seed: an unpublished workflow "will not run for any session —
		// there's no error, it simply never executes". The message is kept.
		m, err := s.Store.AppendMessage(ctx, user)
		return TurnResult{UserMessage: m}, err
	}
	plan, err := s.plan(ctx, ws, wf)
	if err != nil {
		return TurnResult{}, err
	}
	if task && state.HasWait && kind.decision == nil {
		return TurnResult{}, ErrQuestionOpen
	}
	var res *resumption
	switch {
	case kind.decision != nil:
		d := kind.decision
		res = s.resume(ctx, d.wait, d.snapshot, plan, node.ResumeInput{Event: node.ResumeDecision, Decision: d.d})
	case !task && !closed(stop):
		// A turn interrupted before it starts leaves the question to the
		// newer message behind it, which then answers it.
		res = s.resumption(ctx, state, plan, text)
	}
	run := store.Run{WorkspaceID: ws, SessionID: sessionID, WorkflowID: wf.ID, Version: wf.PublishedVersion, Status: vocab.RunRunning, StartedAt: now}
	start := store.TurnStart{Message: user, Run: run}
	if res != nil {
		// The wait gets its one outcome in the transaction that accepts the
		// message; a session change that closed it first wins, and the
		// message then starts a fresh run (as it would have a moment later).
		start.Claim = &store.WaitClaim{WaitID: res.wait.ID, Status: res.closeAs, Required: kind.decision != nil}
		if res.closeAs == vocab.WaitAnswered {
			start.Run.ResumedFromRunID = res.wait.RunID
		}
	}
	run, user, err = s.Store.StartTurn(ctx, start)
	if kind.decision != nil && (errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrSessionEnded)) {
		// Another decision, an expiry or the session's end came first.
		return TurnResult{}, fmt.Errorf("wait %d: %w", kind.decision.wait.ID, ErrDecided)
	}
	if errors.Is(err, store.ErrSessionEnded) {
		// Ended while this turn was reading it: nothing was stored.
		s.transcripts.forget(sessionID)
		return TurnResult{}, ErrSessionEnded
	}
	if err != nil {
		return TurnResult{}, fmt.Errorf("accepting the message: %w", err)
	}
	if start.Claim != nil && !start.Claim.Won {
		res = nil
	}
	vars := turnFacts(sess, history.items, history.users, text, task)
	in := engine.Input{RunID: run.ID, Mock: s.Mock, Interrupt: stop, Services: s.services(ws), Depth: kind.depth,
		Agent: node.Agent{ID: state.Agent.ID, Persona: state.Agent.Persona, DefaultModel: state.Agent.DefaultModel}}
	if s.Tracer != nil {
		in.Tracer = s.Tracer
	}
	if s.Observer != nil {
		in.Observer = engine.ObserverFunc(func(e engine.Event) { s.Observer(ws, sessionID, e) })
	}
	var result *engine.Result
	if res != nil && res.closeAs == vocab.WaitAnswered {
		// Seed 000: "{ ...snapshot, ...freshTurnFacts, [saveAs]: answer }".
		for k, v := range vars {
			res.vars[k] = v
		}
		for k, v := range res.answer {
			res.vars[k] = v
		}
		vars, in.Entry = res.vars, res.entry
	}
	in.Vars = vars
	switch {
	case res != nil && res.err != nil:
		result = &engine.Result{RunID: run.ID, Status: vocab.RunFailed, ErrorCode: engine.ErrorRouting, Error: res.err.Error(), StartedAt: now, FinishedAt: now}
	case res != nil && (res.endSession || res.nothing):
		result = &engine.Result{RunID: run.ID, Status: vocab.RunCompleted, SessionEnded: res.endSession, Vars: vars, StartedAt: now, FinishedAt: now}
	default:
		result = s.Engine.Run(ctx, plan, in)
	}
	tr, err := s.finish(ctx, sess, wf, run, user, res, result)
	if kind.depth > 0 && err == nil {
		tr.output = ownVars(result.Vars)
	}
	return tr, err
}

// resumption decides whether this message answers the session's open wait.
// An expired wait was already closed by the read: no wait, a fresh run, and
// nothing said about it. The wait's kind decides how the reply continues:
// its node type's Resume hook names the edge and the variables to write.
func (s *Service) resumption(ctx context.Context, state store.TurnState, plan *engine.Plan, text string) *resumption {
	if !state.HasWait {
		return nil
	}
	wait, snap := state.Wait, state.Snapshot
	if wait.Identity != state.Session.Identity {
		// Seed 000: "Identity changes cancel the wait ... the reply starts a fresh run".
		return &resumption{wait: wait, closeAs: vocab.WaitCancelled}
	}
	return s.resume(ctx, wait, snap, plan, node.ResumeInput{Event: node.ResumeReply, Text: text})
}

// resume continues a wait as its node type's Resume hook says, with what
// arrived: the run's context to enter with (snapshot, then the hook's
// variables over the turn facts) and the nodes to enter at, the session's
// end, nothing (an optional edge that is missing), or the stranded-wait
// error the resumed run fails with.
func (s *Service) resume(ctx context.Context, wait store.Wait, snap json.RawMessage, plan *engine.Plan, in node.ResumeInput) *resumption {
	r := &resumption{wait: wait, closeAs: vocab.WaitAnswered, vars: map[string]any{}}
	if err := json.Unmarshal(snap, &r.vars); err != nil || r.vars == nil {
		r.vars = map[string]any{}
	}
	spec, ok := s.registry().Lookup(wait.Kind)
	if !ok || spec.Resume == nil {
		r.err = fmt.Errorf("cannot resume the run paused at node %q: no node type %q resumes its wait", wait.NodeID, wait.Kind)
		return r
	}
	in.NodeID, in.State, in.Now = wait.NodeID, wait.State, s.Now()
	next, err := spec.Resume(ctx, in)
	if err != nil {
		r.err = fmt.Errorf("cannot resume the run paused at node %q: %w", wait.NodeID, err)
		return r
	}
	r.answer = next.Vars
	if next.EndSession {
		r.endSession = true
		return r
	}
	r.entry, r.err = plan.ResumeTargets(wait.Kind, wait.NodeID, next.Label)
	if r.err != nil && next.Optional && plan.Has(wait.NodeID) {
		// The type lets this edge be missing: the turn ends here.
		r.entry, r.err, r.nothing = nil, nil, true
	}
	return r
}

// finish writes the turn's end in one transaction. A pause that cannot be
// saved fails the run (and never takes a failure edge).
//
// The end is written even when the caller has gone away (its ctx is done):
// a run the turn started must not be left RUNNING. If the full end cannot be
// written, the run alone is finished as FAILED, so that it ends visibly.
func (s *Service) finish(ctx context.Context, sess store.Session, wf store.Workflow, run store.Run, user store.Message, res *resumption, result *engine.Result) (TurnResult, error) {
	ctx = context.WithoutCancel(ctx)
	end := store.TurnEnd{EndSession: result.SessionEnded}
	if result.Pause != nil {
		end.Pause = s.pause(sess, run, result)
	}
	end.Run, end.Messages = s.closeRun(sess, wf, run, result, nil)
	err := s.Store.EndTurn(ctx, end)
	if errors.Is(err, store.ErrWaitExists) {
		failed := fmt.Errorf("saving the %s pause of node %q: %w", result.Pause.Kind, result.PausedAt, err)
		end.Pause = nil
		end.Run, end.Messages = s.closeRun(sess, wf, run, result, failed)
		err = s.Store.EndTurn(ctx, end)
	}
	if err != nil {
		bare := store.TurnEnd{}
		bare.Run, _ = s.closeRun(sess, wf, run, result, fmt.Errorf("the turn's end could not be stored: %w", err))
		bare.Run.ErrorCode = "TURN_NOT_SAVED"
		if err2 := s.Store.EndTurn(ctx, bare); err2 != nil {
			return TurnResult{}, fmt.Errorf("ending the turn of run %d: %w (and finishing it as failed: %v)", run.ID, err, err2)
		}
		return TurnResult{}, fmt.Errorf("ending the turn of run %d: %w", run.ID, err)
	}
	s.notify(ctx, sess, wf, end)
	return TurnResult{UserMessage: user, Runs: []store.Run{end.Run}, Messages: end.Messages}, nil
}

func (s *Service) pause(sess store.Session, run store.Run, result *engine.Result) *store.Pause {
	p := result.Pause
	w := store.Wait{WorkspaceID: sess.WorkspaceID, SessionID: sess.ID, RunID: run.ID, NodeID: result.PausedAt,
		Kind: p.Kind, ResumeOn: p.ResumeOn, State: p.State, Identity: sess.Identity, Status: vocab.WaitOpen, ExpiresAt: p.ExpiresAt}
	if w.ResumeOn == "" {
		w.ResumeOn = vocab.ResumeOnReply
	}
	return &store.Pause{Wait: w, Snapshot: p.Snapshot}
}

// closeRun shapes the run row and what the user is told. failed, when set,
// overrides the engine's outcome (a pause that could not be saved).
func (s *Service) closeRun(sess store.Session, wf store.Workflow, run store.Run, result *engine.Result, failed error) (store.Run, []store.Message) {
	finished := result.FinishedAt
	run.Status, run.Error, run.ErrorCode, run.FinishedAt = result.Status, result.Error, result.ErrorCode, &finished
	run.NodeTrace = traceJSON(result.NodeTrace)
	msgs := result.Messages
	if failed != nil {
		run.Status, run.Error, run.ErrorCode = vocab.RunFailed, failed.Error(), "PAUSE_NOT_SAVED"
		msgs = nil
	}
	msgs = replies(msgs, run.Status == vocab.RunFailed, wf.FailureResponse)
	out := make([]store.Message, len(msgs))
	for i, m := range msgs {
		out[i] = store.Message{WorkspaceID: sess.WorkspaceID, SessionID: sess.ID, Role: "assistant", Text: m.Text, Mood: m.Mood,
			RunID: run.ID, TurnComplete: m.TurnComplete, CreatedAt: finished}
	}
	return run, out
}

// facts are the turn facts a run's context starts from (PLATFORM §3).
func facts(sess store.Session, history []store.Message, text string, task bool) map[string]any {
	h := make([]any, 0, len(history)+1)
	for _, m := range history {
		h = append(h, map[string]any{"role": m.Role, "text": m.Text})
	}
	return turnFacts(sess, h, countUser(history), text, task)
}

// turnFacts are the facts from a transcript already shaped as
// conversationHistory entries, of which users are the user's messages.
func turnFacts(sess store.Session, history []any, users int, text string, task bool) map[string]any {
	h := make([]any, len(history), len(history)+1)
	copy(h, history)
	if !task {
		h = append(h, map[string]any{"role": "user", "text": text})
	}
	vars := make(map[string]any, 24)
	vars[vocab.FactUserMessage] = text
	vars[vocab.FactConversationHistory] = h
	vars[vocab.FactSessionID] = sess.ID
	vars[vocab.FactTenantID] = sess.WorkspaceID
	vars[vocab.FactAgentID] = sess.AgentID
	vars[vocab.FactTurnIndex] = users
	vars[vocab.FactClientExternalID] = sess.ClientExternalID
	if sess.Channel != "" {
		vars[vocab.FactChannel] = sess.Channel
	}
	return vars
}

func countUser(history []store.Message) int {
	n := 0
	for _, m := range history {
		if m.Role == "user" {
			n++
		}
	}
	return n
}

func (s *Service) services(ws int64) *node.Services {
	if s.ServicesFor != nil {
		return s.ServicesFor(ws)
	}
	return s.Services
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
