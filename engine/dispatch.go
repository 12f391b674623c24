package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/retry"
	"github.com/wetel/wetel/vocab"
)

// dispatch runs node i once and routes on its outcome. It reports whether the
// run goes on.
func (r *run) dispatch(ctx context.Context, i int) bool {
	pn := &r.p.nodes[i]
	r.visits[i]++
	r.res.Executions++
	if r.in.Observer != nil {
		// Checked here, not only in emit: building the event costs every
		// dispatch of a run that nobody observes (measured, ~10 instructions).
		r.emit(Event{Kind: EventNodeExecuting, NodeID: pn.id, Label: pn.label, NodeType: pn.typ})
	}
	row := TraceRow{NodeID: pn.id, NodeType: pn.typ, StartedAt: Timestamp(r.last)}
	out, mocked, err := r.execute(ctx, pn)
	r.last = r.started.Add(clock.Since(r.e.clock, r.started))
	row.FinishedAt = Timestamp(r.last)
	if err != nil {
		return r.failed(pn, &row, mocked, err)
	}
	row.Status = vocab.TraceCompleted
	if pn.spec.Retry {
		if c := r.x.TakeCall(); c != nil {
			// Seed: the row of a node that retried carries its attempts and
			// retryOutcome (succeeded_after_retry), even when it succeeded.
			row.TraceDetail = &TraceDetail{Attempts: c.Attempts, RetryOutcome: c.Outcome}
		}
	}
	if m := r.x.TakeModel(); m != nil {
		row.TraceDetail = withModel(row.TraceDetail, m)
	}
	r.res.NodeTrace = append(r.res.NodeTrace, row)
	if r.in.Observer != nil {
		r.emit(Event{Kind: EventNodeCompleted, NodeID: pn.id, NodeType: pn.typ, Status: vocab.TraceCompleted, Vars: r.x.Vars})
	}
	if p := out.Pause; p != nil {
		// Seed 000: the question ends the turn; nothing else runs in this run.
		if p.Kind == "" {
			p.Kind = pn.typ
		}
		if r.res.Status = p.RunStatus; p.RunStatus == "" {
			r.res.Status = vocab.RunAwaitingInput
		}
		r.res.Pause, r.res.PausedAt = p, pn.id
		return false
	}
	if out.EndSession {
		// end_session ends the run: nothing queued behind it is dispatched.
		r.res.SessionEnded = true
		r.queue = r.queue[:0]
		return false
	}
	return r.route(pn, out)
}

// execute runs the executor, or the node's mock in mock mode. A panicking
// executor becomes a run failure, never a crashed process: the trace and
// the run's error say it crashed, and only the log gets its stack.
func (r *run) execute(ctx context.Context, pn *planNode) (out node.Outcome, mocked bool, err error) {
	if r.in.Mock && pn.spec.Mockable {
		if pn.mockError != nil {
			return node.Outcome{}, true, pn.mockError
		}
		if pn.hasMockResponse {
			// Seed: the node "returns [mockResponse] instead of calling out".
			// The value is shared between runs; nodes never mutate values in place.
			if pn.mockOutputVar != "" {
				r.x.Vars[pn.mockOutputVar] = pn.mockResponse
			}
			return node.Outcome{}, true, nil
		}
	}
	defer func() {
		if p := recover(); p != nil {
			r.logPanic(ctx, pn, p)
			err = node.Fatal(fmt.Errorf("%s node %q crashed: %v", pn.typ, pn.id, p))
		}
	}()
	r.x.NodeID, r.x.NodeType = pn.id, pn.typ
	out, err = pn.exec.Execute(ctx, &r.x)
	return out, false, err
}

// logPanic logs a recovered panic with the stack of the goroutine that
// panicked: called from the deferred recover, debug.Stack still holds the
// executor's frames. The panic value is redacted like the trace's text.
func (r *run) logPanic(ctx context.Context, pn *planNode, p any) {
	r.e.log.ErrorContext(ctx, "node panicked", "node", pn.id, "type", pn.typ, "run", r.in.RunID,
		"panic", failure.Sanitize(fmt.Sprint(p), r.in.Secrets), "stack", string(debug.Stack()))
}

// failed records a node's error and either takes its failure edge or fails
// the run.
func (r *run) failed(pn *planNode, row *TraceRow, mocked bool, err error) bool {
	var code failure.Code
	var msg string
	if mocked && len(r.in.Secrets) == 0 {
		code, msg = pn.mockErrorCode, pn.mockErrorText
	} else {
		code, msg = failure.Classify(err), failure.Sanitize(err.Error(), r.in.Secrets)
	}
	row.ErrorClass = string(code)
	if pn.spec.Retry {
		// A call's row carries its attempts and no error text (seed: "No
		// error text or response body"); a mocked failure is never retried.
		r.x.TakeCall() // a success noted before the node failed is not its story
		row.TraceDetail = callDetail(err, code, mocked)
	} else {
		row.Error = msg
	}
	if m := r.x.TakeModel(); m != nil {
		row.TraceDetail = withModel(row.TraceDetail, m)
	}
	if r.interrupted() {
		// Seed: "a newer message interrupting the turn" never takes a
		// failure edge; a node whose call the interrupt cut short ends the
		// run INTERRUPTED, as the next dispatch would have.
		row.Status = vocab.TraceFailed
		r.res.NodeTrace = append(r.res.NodeTrace, *row)
		r.emit(Event{Kind: EventNodeFailed, NodeID: pn.id, NodeType: pn.typ, ErrorCode: string(code)})
		r.res.Status = vocab.RunInterrupted
		return false
	}
	handled := pn.spec.FailureEdges && len(pn.failureTo) > 0 && !node.IsFatal(err)
	if handled {
		// Seed: "The node's trace row is FAILED_HANDLED (not FAILED), the run
		// itself still completes", with the error in _lastNodeError.
		row.Status = vocab.TraceFailedHandled
		r.res.NodeTrace = append(r.res.NodeTrace, *row)
		r.x.Vars[VarLastNodeError] = msg
		r.x.Vars[VarLastNodeErrorCode] = string(code)
		r.x.Vars[VarLastNodeErrorPublic] = code.PublicSentence()
		r.emit(Event{Kind: EventNodeCompleted, NodeID: pn.id, NodeType: pn.typ, Status: vocab.TraceFailedHandled, Vars: r.x.Vars})
		r.queue = append(r.queue, pn.failureTo...)
		return true
	}
	row.Status = vocab.TraceFailed
	r.res.NodeTrace = append(r.res.NodeTrace, *row)
	r.emit(Event{Kind: EventNodeFailed, NodeID: pn.id, NodeType: pn.typ, ErrorCode: string(code)})
	r.fail(string(code), msg)
	return false
}

// routingError fails the run after a node that completed: the seed lists "a
// routing error after the node finished" among what never takes a failure edge.
type routingError struct{ msg string }

func (e *routingError) Error() string { return e.msg }

// route queues the edges a completed node follows.
func (r *run) route(pn *planNode, out node.Outcome) bool {
	next, err := r.next(pn, out)
	if err != nil {
		var re *routingError
		if errors.As(err, &re) {
			r.fail(ErrorRouting, re.msg)
		}
		return false
	}
	r.queue = append(r.queue, next...)
	return true
}

func (r *run) next(pn *planNode, out node.Outcome) ([]int, error) {
	switch pn.spec.Routing {
	case node.RouteAll:
		if pn.failureRouting {
			// Seed: "it follows success when it completes ... and never its other outgoing edges".
			return pn.success, nil
		}
		return pn.all, nil
	case node.RouteValue:
		if !out.NoValue {
			if t, ok := pn.labels[out.Route]; ok {
				return t, nil
			}
		}
		if pn.defaultTarget >= 0 {
			return []int{pn.defaultTarget}, nil
		}
		shown := fmt.Sprintf("%q", out.Route)
		if out.NoValue {
			shown = "no value"
		}
		return nil, &routingError{fmt.Sprintf("router '%s' has no edge labeled %s and no defaultTarget", pn.id, shown)}
	case node.RouteBool:
		if pn.badLabel != nil {
			label := fmt.Sprintf("labeled %q", pn.badLabel.Label)
			if pn.badLabel.Label == "" {
				label = "with no label"
			}
			return nil, &routingError{fmt.Sprintf("condition '%s' has an outgoing edge '%s' %s; condition edges must be labeled exactly 'true' or 'false'", pn.id, pn.badLabel.ID, label)}
		}
		return pn.labels[out.Route], nil
	default: // RouteCase, RouteOutcome
		if t, ok := pn.labels[out.Route]; ok {
			return t, nil
		}
		return nil, &routingError{fmt.Sprintf("%s node '%s' has no outgoing edge labeled '%s'", pn.typ, pn.id, out.Route)}
	}
}

// callDetail is the retry record of a failed call's row: its executor's
// report when it made the call, one attempt that could not be retried when
// it failed before calling out (no service, a template that did not
// render; "refused" when the SSRF guard refused the URL), and "mock" for a
// mocked failure.
func callDetail(err error, code failure.Code, mocked bool) *TraceDetail {
	if mocked {
		return &TraceDetail{Attempts: []Attempt{{N: 1, ErrorClass: string(code)}}, RetryOutcome: retry.OutcomeMock}
	}
	var ce *node.CallError
	if errors.As(err, &ce) && len(ce.Attempts) > 0 {
		return &TraceDetail{Attempts: ce.Attempts, RetryOutcome: ce.Outcome}
	}
	outcome := retry.OutcomeNotRetryable
	if failure.IsRefused(err) {
		outcome = retry.OutcomeRefused
	}
	return &TraceDetail{Attempts: []Attempt{{N: 1, ErrorClass: string(code)}}, RetryOutcome: outcome}
}
