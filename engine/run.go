package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// Context variables the engine writes after a handled failure.
const (
	VarLastNodeError       = "_lastNodeError"
	VarLastNodeErrorCode   = "_lastNodeErrorCode"
	VarLastNodeErrorPublic = "_lastNodeErrorPublic"
)

// Codes a failed run carries besides the failure classes of node errors.
const (
	ErrorVisitLimit = "VISIT_LIMIT_EXCEEDED"
	ErrorBudget     = "BUDGET_EXCEEDED"
	ErrorRouting    = "ROUTING_ERROR"
)

// Input is one run's input.
type Input struct {
	RunID int64
	// Vars seeds the run's context; the run writes into it, so pass a map the
	// caller does not share.
	Vars map[string]any
	// Mock runs mockable nodes from their mockResponse / mockError.
	Mock bool
	// Interrupt, when closed, stops the run before its next dispatch.
	Interrupt <-chan struct{}
	Observer  Observer
	// Tracer, when set, makes a span of each dispatch.
	Tracer Tracer
	// Secrets are exact values (action headers, credentials) removed from any
	// error text the run stores.
	Secrets []string
	// Entry names the nodes dispatched first instead of start (a resumed run).
	Entry []string
	// Child marks a run dispatched by sub_agent, and Depth says how deeply
	// nested its dispatch is (1 for a child of a run a person started).
	Child bool
	Depth int
	// Services are the outside systems the run's nodes may call (HTTP,
	// custom actions, MCP connectors, the async outbox); nil for none.
	Services *node.Services
	// Agent is the agent the run speaks for (persona, default model).
	Agent node.Agent
}

// Result is what a run did.
type Result struct {
	RunID      int64
	Status     string
	Error      string // why the run failed, secrets redacted
	ErrorCode  string
	NodeTrace  []TraceRow
	Messages   []node.Message
	Vars       map[string]any
	Executions int
	// SessionEnded is set when an end_session node ran.
	SessionEnded bool
	// Pause is set when the run stopped at PausedAt to wait (AWAITING_INPUT,
	// AWAITING_APPROVAL): what the turn stores for a later one to resume.
	Pause      *node.Pause
	PausedAt   string
	StartedAt  time.Time
	FinishedAt time.Time
}

// run is one run's mutable state, allocated once.
type run struct {
	e      *Engine
	p      *Plan
	in     *Input
	res    *Result
	visits []int32
	flags  []uint8
	queue  []int
	// buffers that keep a small graph's run to one allocation
	visitBuf [32]int32
	flagBuf  [32]uint8
	queueBuf [16]int
	x        node.Exec
	tracer   Tracer // in.Tracer, one load nearer on the dispatch path
	started  time.Time
	// last is the clock's latest reading: when the previous node finished,
	// which is also when the next check and dispatch begin. Reading the clock
	// once per dispatch instead of three times is a measurable part of a turn.
	last time.Time
}

const (
	flagRefusalRecorded uint8 = 1 << iota
	flagEscaped
)

// Run executes the plan once. It never panics on a node's behalf: a panicking
// executor fails the run like any error.
func (e *Engine) Run(ctx context.Context, p *Plan, in Input) *Result {
	n := len(p.nodes)
	r := &run{e: e, p: p, in: &in, tracer: in.Tracer}
	if n <= len(r.visitBuf) {
		r.visits, r.flags = r.visitBuf[:n], r.flagBuf[:n]
	} else {
		r.visits, r.flags = make([]int32, n), make([]uint8, n)
	}
	r.queue = r.queueBuf[:0]
	r.started = e.clock.Now()
	r.last = r.started
	if in.Vars == nil {
		in.Vars = map[string]any{}
	}
	r.res = &Result{RunID: in.RunID, Status: vocab.RunRunning, Vars: in.Vars, StartedAt: r.started, NodeTrace: make([]TraceRow, 0, n+1)}
	r.x = node.Exec{Vars: in.Vars, Mock: in.Mock, Clock: e.clock, Reply: r.reply, Child: in.Child || in.Depth > 0, Depth: in.Depth, Interrupt: in.Interrupt,
		RunID: in.RunID, Deadline: r.started.Add(e.limits.MaxDuration), Services: in.Services, Place: e.place, Agent: in.Agent}
	r.emit(Event{Kind: EventRunStarted})
	if len(in.Entry) == 0 {
		r.queue = append(r.queue, p.start)
	}
	for _, id := range in.Entry {
		if i, ok := p.index[id]; ok {
			r.queue = append(r.queue, i)
		}
	}
	r.loop(ctx)
	if r.res.Status == vocab.RunRunning {
		r.res.Status = vocab.RunCompleted
	}
	r.res.FinishedAt = e.clock.Now()
	r.emit(Event{Kind: EventRunFinished, Status: r.res.Status, Vars: r.res.Vars})
	return r.res
}

func (r *run) loop(ctx context.Context) {
	for head := 0; head < len(r.queue); head++ {
		i := r.queue[head]
		// Seed: "a user-initiated interrupt first, then the run budget, then
		// the node's visit budget. A refused node never executes."
		if r.interrupted() {
			r.res.Status = vocab.RunInterrupted
			return
		}
		if r.budgetExceeded(i) {
			return
		}
		pn := &r.p.nodes[i]
		if int(r.visits[i]) >= pn.maxVisits {
			if !r.refuse(i) {
				return
			}
			continue
		}
		if r.tracer != nil {
			if !r.dispatchTraced(ctx, i) {
				return
			}
			continue
		}
		if !r.dispatch(ctx, i) {
			return
		}
	}
}

func (r *run) interrupted() bool {
	if r.in.Interrupt == nil {
		return false
	}
	select {
	case <-r.in.Interrupt:
		return true
	default:
		return false
	}
}

// budgetExceeded checks the run budget in front of node i and, when it is
// spent, records the BUDGET_EXCEEDED entry and fails the run.
func (r *run) budgetExceeded(i int) bool {
	lim := r.e.limits
	now := r.last
	elapsed := now.Sub(r.started)
	var which, msg string
	pn := &r.p.nodes[i]
	switch {
	case r.res.Executions >= lim.MaxNodeExecutions:
		which = BudgetMaxNodeExecutions
		msg = fmt.Sprintf("Workflow run exceeded its node budget of %d node executions (stopped before node '%s', %dms elapsed). A loop kept running: bound it with maxVisits and a loop_exhausted edge.",
			lim.MaxNodeExecutions, pn.id, elapsed.Milliseconds())
	case elapsed >= lim.MaxDuration:
		which = BudgetDeadline
		msg = fmt.Sprintf("Workflow run exceeded its deadline of %s (stopped before node '%s' after %d node executions, %dms elapsed). Tighten the timeoutMs of slow calls.",
			formatDuration(lim.MaxDuration), pn.id, r.res.Executions, elapsed.Milliseconds())
	default:
		return false
	}
	execs, ms := r.res.Executions, elapsed.Milliseconds()
	r.res.NodeTrace = append(r.res.NodeTrace, TraceRow{
		NodeID: pn.id, NodeType: pn.typ, Status: vocab.TraceBudgetExceeded,
		StartedAt: Timestamp(now), FinishedAt: Timestamp(now), Error: msg,
		TraceDetail: &TraceDetail{BudgetLimit: which, BudgetNodeExecutions: &execs, BudgetElapsedMs: &ms},
	})
	r.fail(ErrorBudget, msg)
	return true
}

// refuse handles an arrival at a node that has used its maxVisits, as the
// seed's three-row table says. It reports whether the run goes on.
func (r *run) refuse(i int) bool {
	pn := &r.p.nodes[i]
	now := r.last
	escape := len(pn.exhausted) > 0 && r.flags[i]&flagEscaped == 0
	failing := !escape && pn.explicitMax
	msg := ""
	if failing {
		msg = fmt.Sprintf("WorkflowNodeVisitLimitExceededError: node '%s' was reached again after using all %d of its maxVisits in this run.", pn.id, pn.maxVisits)
	}
	// Seed: "records at most one refusal entry per node".
	if r.flags[i]&flagRefusalRecorded == 0 {
		r.flags[i] |= flagRefusalRecorded
		r.res.NodeTrace = append(r.res.NodeTrace, TraceRow{
			NodeID: pn.id, NodeType: pn.typ, Status: vocab.TraceVisitLimitReached,
			StartedAt: Timestamp(now), FinishedAt: Timestamp(now), Error: msg,
			TraceDetail: &TraceDetail{VisitLimit: pn.maxVisits, VisitCount: int(r.visits[i])},
		})
	}
	switch {
	case escape:
		// Seed: "The engine follows a node's 'loop_exhausted' edge at most once per run".
		r.flags[i] |= flagEscaped
		r.queue = append(r.queue, pn.exhausted...)
	case failing:
		r.fail(ErrorVisitLimit, msg)
		return false
	}
	// maxVisits left unset: that branch stops; the rest of the graph carries on.
	return true
}

func (r *run) fail(code, msg string) {
	r.res.Status = vocab.RunFailed
	r.res.ErrorCode = code
	r.res.Error = msg
}

func (r *run) reply(m node.Message) {
	if m.Partial {
		// A streamed piece: published now, never one of the run's messages.
		if r.in.Observer != nil {
			msg := m
			r.in.Observer.Observe(Event{Kind: EventMessageChunk, RunID: r.in.RunID, NodeID: m.NodeID, Message: &msg})
		}
		return
	}
	r.res.Messages = append(r.res.Messages, m)
	if r.in.Observer != nil {
		msg := m
		r.in.Observer.Observe(Event{Kind: EventMessage, RunID: r.in.RunID, NodeID: m.NodeID, Message: &msg})
	}
}

func (r *run) emit(ev Event) {
	if r.in.Observer != nil {
		ev.RunID = r.in.RunID
		r.in.Observer.Observe(ev)
	}
}

func formatDuration(d time.Duration) string {
	if d%time.Minute == 0 {
		m := int(d / time.Minute)
		if m == 1 {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", m)
	}
	return d.String()
}
