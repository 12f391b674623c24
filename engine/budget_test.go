package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// A loop of three nodes allowed 100 visits each runs into the run budget of
// 250 before any node's own limit: BUDGET_EXCEEDED, not VISIT_LIMIT_REACHED.
func TestRunBudgetOf250(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), say("a", "a", `,"maxVisits":100`), say("b", "b", `,"maxVisits":100`), say("c", "c", `,"maxVisits":100`)},
		[]string{ed("e1", "s", "a", ""), ed("e2", "a", "b", ""), ed("e3", "b", "c", ""), ed("e4", "c", "a", "")})
	h := newHarness()
	res := h.run(t, doc, engine.Input{})
	if res.Status != vocab.RunFailed || res.Executions != 250 || res.ErrorCode != engine.ErrorBudget {
		t.Fatalf("status %s, executions %d, code %s", res.Status, res.Executions, res.ErrorCode)
	}
	last := res.NodeTrace[len(res.NodeTrace)-1]
	if len(res.NodeTrace) != 251 || last.Status != vocab.TraceBudgetExceeded || last.BudgetLimit != "maxNodeExecutions" ||
		*last.BudgetNodeExecutions != 250 || *last.BudgetElapsedMs != 0 || last.NodeID != "a" || last.NodeType != "response" {
		t.Fatalf("budget row = %+v (rows %d)", last, len(res.NodeTrace))
	}
	wantErr := "Workflow run exceeded its node budget of 250 node executions (stopped before node 'a', 0ms elapsed)."
	if !strings.HasPrefix(last.Error, wantErr) || res.Error != last.Error {
		t.Errorf("error = %q", last.Error)
	}
	if last.StartedAt != last.FinishedAt {
		t.Error("a refused node has no duration")
	}
}

func TestRunBudgetIsConfigurable(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), say("a", "a"), say("b", "b"), say("c", "c")},
		[]string{ed("e1", "s", "a", ""), ed("e2", "a", "b", ""), ed("e3", "b", "c", "")})
	h := newHarness()
	h.lim = engine.Limits{MaxNodeExecutions: 3}
	res := h.run(t, doc, engine.Input{})
	if res.Status != vocab.RunFailed || path(res) != "s:COMPLETED a:COMPLETED b:COMPLETED c:BUDGET_EXCEEDED" {
		t.Fatalf("status %s: %s", res.Status, path(res))
	}
}

// The deadline, with an injected clock that a test node moves forward.
func TestRunDeadline(t *testing.T) {
	t.Parallel()
	h := newHarness()
	h.stub(t, "slow", false, func(context.Context, *node.Exec) (node.Outcome, error) {
		h.clock.Advance(4 * time.Minute)
		return node.Outcome{}, nil
	})
	doc := gdoc([]string{nd("s", "start", `{}`), nd("a", "slow", `{}`), nd("b", "slow", `{}`), nd("c", "slow", `{}`), say("d", "late")},
		[]string{ed("e1", "s", "a", ""), ed("e2", "a", "b", ""), ed("e3", "b", "c", ""), ed("e4", "c", "d", "")})
	res := h.run(t, doc, engine.Input{})
	last := res.NodeTrace[len(res.NodeTrace)-1]
	// 4 minutes a node: before c 8 minutes have gone, before d 12.
	if res.Status != vocab.RunFailed || path(res) != "s:COMPLETED a:COMPLETED b:COMPLETED c:COMPLETED d:BUDGET_EXCEEDED" {
		t.Fatalf("status %s: %s", res.Status, path(res))
	}
	if last.BudgetLimit != "deadline" || *last.BudgetElapsedMs != 720000 || *last.BudgetNodeExecutions != 4 {
		t.Fatalf("budget row = %+v", last)
	}
	want := "Workflow run exceeded its deadline of 10 minutes (stopped before node 'd' after 4 node executions, 720000ms elapsed)."
	if !strings.HasPrefix(last.Error, want) {
		t.Errorf("error = %q", last.Error)
	}
}

// A node in flight always finishes: the deadline is checked between dispatches.
func TestDeadlineNeverInterruptsANode(t *testing.T) {
	t.Parallel()
	h := newHarness()
	h.stub(t, "slow", false, func(context.Context, *node.Exec) (node.Outcome, error) {
		h.clock.Advance(11 * time.Minute)
		return node.Outcome{}, nil
	})
	doc := gdoc([]string{nd("s", "start", `{}`), nd("a", "slow", `{}`), say("b", "b")}, []string{ed("e1", "s", "a", ""), ed("e2", "a", "b", "")})
	res := h.run(t, doc, engine.Input{})
	if path(res) != "s:COMPLETED a:COMPLETED b:BUDGET_EXCEEDED" {
		t.Fatalf("trace %s", path(res))
	}
}

// "The checks run in this order before any node is dispatched: a
// user-initiated interrupt first, then the run budget, then the node's visit
// budget. A refused node never executes, never emits a NODE_EXECUTING event".
func TestCheckOrderBeforeDispatch(t *testing.T) {
	t.Parallel()
	t.Run("interrupt before budget", func(t *testing.T) {
		t.Parallel()
		h := newHarness()
		h.lim = engine.Limits{MaxNodeExecutions: 1}
		stop := make(chan struct{})
		h.stub(t, "start", false, func(context.Context, *node.Exec) (node.Outcome, error) {
			close(stop)
			return node.Outcome{}, nil
		})
		doc := gdoc([]string{nd("s", "start", `{}`), say("a", "a")}, []string{ed("e1", "s", "a", "")})
		res := h.run(t, doc, engine.Input{Interrupt: stop})
		if res.Status != vocab.RunInterrupted || path(res) != "s:COMPLETED" || len(res.Messages) != 0 {
			t.Fatalf("status %s: %s", res.Status, path(res))
		}
	})
	t.Run("budget before visit limit", func(t *testing.T) {
		t.Parallel()
		h := newHarness()
		h.lim = engine.Limits{MaxNodeExecutions: 3}
		doc := gdoc([]string{nd("s", "start", `{}`), say("a", "a"), say("j", "j")},
			[]string{ed("e1", "s", "a", ""), ed("e2", "s", "j", ""), ed("e3", "a", "j", "")})
		res := h.run(t, doc, engine.Input{})
		// s, a, j ran (3 executions); the second arrival at j meets both
		// limits and the run budget wins.
		if path(res) != "s:COMPLETED a:COMPLETED j:COMPLETED j:BUDGET_EXCEEDED" {
			t.Fatalf("trace %s", path(res))
		}
	})
	t.Run("a refused node emits no NodeExecuting", func(t *testing.T) {
		t.Parallel()
		var executing []string
		obs := engine.ObserverFunc(func(e engine.Event) {
			if e.Kind == engine.EventNodeExecuting {
				executing = append(executing, e.NodeID)
			}
		})
		doc := gdoc([]string{nd("s", "start", `{}`), say("a", "a"), say("j", "j")},
			[]string{ed("e1", "s", "a", ""), ed("e2", "s", "j", ""), ed("e3", "a", "j", "")})
		res := newHarness().run(t, doc, engine.Input{Observer: obs})
		if strings.Join(executing, ",") != "s,a,j" || res.Executions != 3 {
			t.Fatalf("executing %v, executions %d", executing, res.Executions)
		}
	})
}
