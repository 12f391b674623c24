package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// walk runs one path: the decisions in prefix are taken as given, every
// other as its first alternative, each recorded in the order met.
func (x *explorer) walk(ctx context.Context, prefix []decision) (*exploredPath, error) {
	p := &exploredPath{}
	table := &outcomeTable{x: x, path: p, given: map[string]int{}, met: map[string]bool{}}
	for _, d := range prefix {
		table.given[d.key] = d.alt
	}
	r := &turn.Runner{Engine: x.eng, Plan: x.plan, FailureResponse: x.failureResponse, Services: node.NewServices(outcomesKey.With(outcomeSource(table)))}
	sess := &turn.Session{Session: store.Session{ID: 1, WorkspaceID: 1, AgentID: 1, Status: store.SessionOpen}}
	res := r.Send(ctx, sess, x.message)
	for {
		last := res.Runs[len(res.Runs)-1]
		p.turns = append(p.turns, exploredTurnOf(res, p))
		if last.Status != vocab.RunAwaitingInput || last.Pause == nil || len(p.turns) == explorerMaxTurns {
			break
		}
		alt, _ := table.take(fmt.Sprintf("reply:%d", len(p.turns)), x.replyAlternatives(last))
		p.choices = append(p.choices, last.PausedAt+": "+alt.what)
		if alt.stop {
			break
		}
		var err error
		if res, err = r.Resume(ctx, sess, x.reg, last, alt.reply); err != nil {
			return nil, err
		}
	}
	for _, n := range x.graph.Nodes {
		if alts, ok := x.nodeAlts[n.ID]; ok && table.met["node:"+n.ID] {
			if a := alts[table.given["node:"+n.ID]]; a.mock != nil {
				p.mocks = append(p.mocks, *a.mock)
			}
		}
	}
	return p, nil
}

func exploredTurnOf(res turn.Result, p *exploredPath) exploredTurn {
	t := exploredTurn{message: res.Message}
	for _, run := range res.Runs {
		er := exploredRun{id: run.RunID, status: run.Status, rows: make([]rowHead, 0, len(run.NodeTrace))}
		for _, row := range run.NodeTrace {
			er.rows = append(er.rows, rowHead{NodeID: row.NodeID, Status: row.Status})
		}
		// A run that starts where the previous turn's question paused
		// resumed it.
		if n := len(p.turns); n > 0 {
			prev := p.turns[n-1].runs
			if len(prev) > 0 && prev[len(prev)-1].status == vocab.RunAwaitingInput {
				er.resumedFrom = prev[len(prev)-1].id
			}
		}
		t.runs = append(t.runs, er)
	}
	for _, m := range res.Messages {
		t.messages = append(t.messages, m.Text)
	}
	return t
}

// outcomeTable is one path's node outcomes: each node's is decided the
// first time the node runs and then holds for the rest of the path.
type outcomeTable struct {
	x     *explorer
	path  *exploredPath
	mu    sync.Mutex
	given map[string]int
	met   map[string]bool
}

// take records a decision the first time it is met and returns its
// alternative, and whether this was the first time.
func (t *outcomeTable) take(key string, alts []alternative) (alternative, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	alt, first := t.given[key], !t.met[key]
	if first {
		t.met[key] = true
		t.path.decisions = append(t.path.decisions, decision{key: key, alt: alt, alts: len(alts)})
	}
	return alts[alt], first
}

// outcome is what a mockable node does on this path: ok false leaves it
// to its own mock (or, with none, its real executor, which has nothing to
// call here and fails by name).
func (t *outcomeTable) outcome(nodeID string) (*mockOverride, bool) {
	alts, ok := t.x.nodeAlts[nodeID]
	if !ok {
		return nil, false
	}
	a, first := t.take("node:"+nodeID, alts)
	if first {
		t.mu.Lock()
		t.path.choices = append(t.path.choices, nodeID+": "+a.what)
		t.mu.Unlock()
	}
	return a.mock, a.mock != nil
}

// outcomeSource says what a mockable node does when it runs: an explored
// path's outcome, or a scenario's mock sequence. ok false leaves the node
// to its own mock.
type outcomeSource interface {
	outcome(nodeID string) (*mockOverride, bool)
}

// outcomesKey is the run capability holding the outcome source.
var outcomesKey = node.NewKey[outcomeSource]("wetel.outcomes")

// outcomeTypes is the default registry with the outcome-taking executors.
var outcomeTypes = sync.OnceValues(func() (*node.Registry, error) { return outcomeRegistry(node.Default) })

// outcomeRegistry is reg with each mockable type's executor replaced by
// one that does what the path's outcome table says, or what the node's
// own mock says, or runs the real executor when neither says anything.
func outcomeRegistry(reg *node.Registry) (*node.Registry, error) {
	out := reg.Clone()
	for _, typ := range reg.Types() {
		spec, _ := reg.Lookup(typ)
		if !spec.Mockable {
			continue
		}
		cp := *spec
		cp.Fields = nil
		for _, f := range spec.Fields {
			switch f.Name {
			case node.FieldMaxVisits, node.FieldMockResponse, node.FieldMockError, node.FieldRetry:
			default:
				cp.Fields = append(cp.Fields, f)
			}
		}
		cp.Build = outcomeBuild(spec)
		if err := out.Replace(&cp); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func outcomeBuild(spec *node.Spec) func(node.BuildInput) (node.Executor, error) {
	return func(b node.BuildInput) (node.Executor, error) {
		real, err := spec.Build(b)
		if err != nil {
			return nil, err
		}
		var cfg map[string]json.RawMessage
		if err := b.Decode(&cfg); err != nil {
			return nil, err
		}
		var outVar string
		_ = json.Unmarshal(cfg[spec.MockOutput], &outVar)
		var own *mockOverride
		if v, ok := cfg["mockError"]; ok {
			own = &mockOverride{nodeID: b.NodeID, field: "mockError", value: v}
		} else if v, ok := cfg["mockResponse"]; ok {
			own = &mockOverride{nodeID: b.NodeID, field: "mockResponse", value: v}
		}
		return node.ExecutorFunc(func(ctx context.Context, x *node.Exec) (node.Outcome, error) {
			m := own
			if t, ok := outcomesKey.Get(x.Services); ok && t != nil {
				if o, ok := t.outcome(x.NodeID); ok {
					m = o
				}
			}
			if m == nil {
				return real.Execute(ctx, x)
			}
			return applyOutcome(x, outVar, *m)
		}), nil
	}
}

// applyOutcome does what the engine does with a mock: the response lands
// in the output variable, or the node fails with the mocked class.
func applyOutcome(x *node.Exec, outVar string, m mockOverride) (node.Outcome, error) {
	if m.field == "mockError" {
		var e struct{ Code, Message string }
		_ = json.Unmarshal(m.value, &e)
		return node.Outcome{}, &failure.Error{Code: failure.Code(e.Code), Message: e.Message}
	}
	var v any
	if err := json.Unmarshal(m.value, &v); err != nil {
		return node.Outcome{}, err
	}
	if outVar != "" {
		x.Vars[outVar] = v
	}
	return node.Outcome{}, nil
}
