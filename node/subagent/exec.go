package subagent

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
	"github.com/wetel/wetel/vocab"
)

// MaxDepth bounds nested dispatch: a child's run may dispatch again, to
// this depth; a sub_agent node deeper than that fails as a configuration
// error, so agents dispatching to each other cannot recurse without end.
const MaxDepth = 3

// Per-target timeouts (PLATFORM §6).
const (
	DefaultTimeout = 60 * time.Second
	MaxTimeout     = 300 * time.Second
)

type config struct {
	Targets []struct {
		AgentID         int64  `json:"agentId"`
		MessageTemplate string `json:"messageTemplate"`
	} `json:"targets"`
	ResultVar string `json:"resultVar"`
	TimeoutMs int    `json:"timeoutMs"`
}

type target struct {
	agentID int64
	message *tmpl.Template
}

type executor struct {
	targets   []target
	resultVar string
	timeout   time.Duration
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg config
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	e := &executor{resultVar: cfg.ResultVar, timeout: DefaultTimeout}
	if cfg.TimeoutMs > 0 {
		e.timeout = min(time.Duration(cfg.TimeoutMs)*time.Millisecond, MaxTimeout)
	}
	for _, t := range cfg.Targets {
		src := t.MessageTemplate
		if src == "" {
			src = "{{userMessage}}" // the target hears what the user said
		}
		m, err := tmpl.Parse(src)
		if err != nil {
			return nil, fmt.Errorf("node %q: messageTemplate: %w", b.NodeID, err)
		}
		e.targets = append(e.targets, target{agentID: t.AgentID, message: m})
	}
	return e, nil
}

// Execute dispatches every target at once and waits for all of them, each
// bounded by timeoutMs, the run's deadline and the parent's interrupt.
// Seed 001: a target that fails or times out is reported in resultVar and
// the node still takes success; only a configuration error fails it.
func (e *executor) Execute(ctx context.Context, x *node.Exec) (node.Outcome, error) {
	d, ok := DispatcherKey.Get(x.Services)
	if !ok {
		return node.Outcome{}, node.Unavailable("sub_agent", x.NodeID, "child sessions are not available here; run in mock mode with a mockResponse")
	}
	if len(e.targets) == 0 || len(e.targets) > MaxTargets {
		return node.Outcome{}, configError(x.NodeID, "has %d targets; a dispatch takes 1 to %d", len(e.targets), MaxTargets)
	}
	if x.Depth >= MaxDepth {
		return node.Outcome{}, configError(x.NodeID, "would dispatch at depth %d; sub_agent dispatch nests at most %d deep", x.Depth+1, MaxDepth)
	}
	parent, _ := x.Vars[vocab.FactSessionID].(int64)
	reqs := make([]Request, len(e.targets))
	for i, t := range e.targets {
		text, err := t.message.Render(x.Vars)
		if err != nil {
			return node.Outcome{}, fmt.Errorf("sub_agent node %q: target %d: %w", x.NodeID, i, err)
		}
		reqs[i] = Request{ParentSessionID: parent, AgentID: t.agentID, Text: text, Depth: x.Depth + 1}
	}
	ctx, cancel := e.bound(ctx, x)
	defer cancel()
	results := make([]Result, len(reqs))
	errs := make([]error, len(reqs))
	var wg sync.WaitGroup
	for i := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tctx, tcancel := context.WithTimeout(ctx, e.timeout)
			defer tcancel()
			results[i], errs[i] = d.Dispatch(tctx, reqs[i])
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return node.Outcome{}, configError(x.NodeID, "target %d (agent %d): %v", i, reqs[i].AgentID, err)
		}
	}
	if e.resultVar != "" {
		x.Vars[e.resultVar] = resultArray(reqs, results)
	}
	return node.Outcome{}, nil
}

// bound ends ctx with the parent's interrupt and its run's deadline, which
// no child outlives (seed: "The run's own deadline always applies too").
func (e *executor) bound(ctx context.Context, x *node.Exec) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if !x.Deadline.IsZero() && x.Clock != nil {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, x.Deadline.Sub(x.Clock.Now()))
		outer := cancel
		cancel = func() { stop(); outer() }
	}
	if x.Interrupt != nil {
		go func() {
			select {
			case <-x.Interrupt:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	return ctx, cancel
}

// resultArray is resultVar's value: one entry per target, in target order.
func resultArray(reqs []Request, results []Result) []any {
	out := make([]any, len(results))
	for i, r := range results {
		msgs := make([]any, len(r.Messages))
		for j, m := range r.Messages {
			msgs[j] = m
		}
		entry := map[string]any{"agentId": reqs[i].AgentID, "status": r.Status, "messages": msgs, "output": r.Output, "error": nil}
		if r.Output == nil {
			entry["output"] = map[string]any{}
		}
		if r.Error != "" {
			entry["error"] = r.Error
		}
		out[i] = entry
	}
	return out
}

func configError(nodeID, format string, args ...any) error {
	return &failure.Error{Code: failure.Unknown, Message: fmt.Sprintf("sub_agent node %q ", nodeID) + fmt.Sprintf(format, args...)}
}
