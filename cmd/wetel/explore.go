package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/awaitreply"
	"github.com/wetel/wetel/scenario"
	"github.com/wetel/wetel/vocab"
)

// Exploration (`wetel run --explore`) walks the paths a graph allows by
// driving the decisions a scenario can script, and nothing else: each
// mockable node's outcome (its own mock, each value the graph is seen to
// branch on for its output, a failure when it has a failure edge), and each
// question's reply (every option slot, a reply matching none, free text,
// or no reply at all). Conditions and switches take only the branches
// those outcomes make reachable, so an edge no explored path takes is
// reported rather than forced (no variable is ever set by hand).
//
// Paths run in memory on turn.Runner (one compiled plan; the mockable
// node types' executors replaced by ones that take the path's outcome), so
// thousands run in a second. A node's outcome holds for the whole path, as
// a scenario's mock does, so every path can be written as a scenario, and
// the tests check that the written scenarios pass on the stored turn
// service wetel test uses.

// explorerMaxTurns bounds one path's conversation (a question asked again
// and again).
const explorerMaxTurns = 12

// noMatchReply is the reply explored as matching none of a question's
// options.
const noMatchReply = "none of those"

// alternative is one way a decision can go.
type alternative struct {
	what  string        // for the report: "its own mockResponse", "reply \"2\""
	mock  *mockOverride // a node's outcome; nil keeps the graph's own
	reply string        // a question's reply
	stop  bool          // leave the question unanswered: the path ends
}

// decision is one decision a path met, and how it went.
type decision struct {
	key  string // "node:ID" or "reply:N" (the path's Nth question)
	alt  int
	alts int
}

// explorer holds what every path shares: the graph, the decision
// alternatives per node, and the plan compiled with the outcome-taking
// executors.
type explorer struct {
	graph           *graph.Graph
	message         string
	failureResponse string
	nodeAlts        map[string][]alternative
	reg             *node.Registry
	eng             *engine.Engine
	plan            *engine.Plan
}

// exploredPath is one path's conversation.
type exploredPath struct {
	mocks     []mockOverride // the overrides the path ran with
	choices   []string       // what each decision was, in order
	turns     []exploredTurn
	decisions []decision
}

type exploredTurn struct {
	message  string
	runs     []exploredRun
	messages []string
}

type exploredRun struct {
	id, resumedFrom int64
	status          string
	rows            []rowHead
}

type rowHead struct {
	NodeID string `json:"nodeId"`
	Status string `json:"status"`
}

func newExplorer(g *graph.Graph, message, failureResponse string) (*explorer, error) {
	x := &explorer{graph: g, message: message, failureResponse: failureResponse, nodeAlts: map[string][]alternative{}}
	for _, n := range g.Nodes {
		if alts := nodeAlternatives(g, n); len(alts) > 1 {
			x.nodeAlts[n.ID] = alts
		}
	}
	reg, err := outcomeTypes()
	if err != nil {
		return nil, err
	}
	x.reg = reg
	if x.eng, err = engine.New(engine.Options{Clock: clock.NewFake(scenario.DefaultClock)}); err != nil {
		return nil, err
	}
	if x.plan, err = engine.Compile(g, reg); err != nil {
		return nil, err
	}
	return x, nil
}

// nodeAlternatives are the outcomes explored for a mockable node: its own
// mock first, then each value the graph is seen to branch on for its output
// variable (valuesSeen), then a failure when the node has a failure edge.
func nodeAlternatives(g *graph.Graph, n graph.Node) []alternative {
	spec, ok := node.Default.Lookup(n.Type)
	if !ok || !spec.Mockable {
		return nil
	}
	var cfg map[string]json.RawMessage
	_ = json.Unmarshal(n.Config, &cfg)
	_, hasResponse := cfg["mockResponse"]
	_, hasError := cfg["mockError"]
	var alts []alternative
	switch {
	case hasResponse:
		alts = append(alts, alternative{what: "its own mockResponse"})
	case hasError:
		alts = append(alts, alternative{what: "its own mockError"})
	default:
		null := mockOverride{nodeID: n.ID, field: "mockResponse", value: json.RawMessage("null")}
		alts = append(alts, alternative{what: "mockResponse null (it has no mock)", mock: &null})
	}
	own := ""
	if hasResponse {
		var s any
		if json.Unmarshal(cfg["mockResponse"], &s) == nil {
			own, _ = node.Scalar(s)
		}
	}
	var outVar string
	if spec.MockOutput != "" {
		_ = json.Unmarshal(cfg[spec.MockOutput], &outVar)
	}
	seen := map[string]bool{own: true}
	for _, v := range valuesSeen(g, outVar) {
		if seen[v.value] {
			continue
		}
		seen[v.value] = true
		b, _ := json.Marshal(v.value)
		o := mockOverride{nodeID: n.ID, field: "mockResponse", value: b}
		alts = append(alts, alternative{what: fmt.Sprintf("mockResponse %s (%s)", b, v.why), mock: &o})
	}
	if spec.FailureEdges && hasFailureEdge(g, n.ID) && (hasResponse || !hasError) {
		o := mockOverride{nodeID: n.ID, field: "mockError", value: json.RawMessage(`{"code":"UPSTREAM_ERROR","message":"explored failure"}`)}
		alts = append(alts, alternative{what: "mockError UPSTREAM_ERROR", mock: &o})
	}
	if hasError && !hasResponse {
		// A node mocked to fail explores success too, with a null result.
		null := mockOverride{nodeID: n.ID, field: "mockResponse", value: json.RawMessage("null")}
		alts = append(alts, alternative{what: "mockResponse null (success)", mock: &null})
	}
	return alts
}

// seenValue is a value of a variable some branching node tests for.
type seenValue struct{ value, why string }

// literalTest finds `NAME == "text"` and `"text" == NAME` in an expression.
var literalTest = regexp.MustCompile(`(?:^|[^\w.])([A-Za-z_]\w*)\s*==\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)"\s*==\s*([A-Za-z_]\w*)(?:[^\w.]|$)`)

// valuesSeen lists the values of variable v the graph branches on, as far
// as they can be seen: each edge label of a router whose variable is v,
// and each string a condition or switch case compares v with.
func valuesSeen(g *graph.Graph, v string) []seenValue {
	if v == "" {
		return nil
	}
	var out []seenValue
	for _, n := range g.Nodes {
		var cfg struct {
			Variable   string `json:"variable"`
			Expression string `json:"expression"`
			Cases      []struct {
				Label      string `json:"label"`
				Expression string `json:"expression"`
			} `json:"cases"`
		}
		if json.Unmarshal(n.Config, &cfg) != nil {
			continue
		}
		switch n.Type {
		case "router":
			if cfg.Variable != v {
				continue
			}
			for _, e := range g.Outgoing(n.ID) {
				if e.Label != "" {
					out = append(out, seenValue{e.Label, fmt.Sprintf("router %s's route", n.ID)})
				}
			}
		case "condition":
			for _, lit := range literalsFor(cfg.Expression, v) {
				out = append(out, seenValue{lit, fmt.Sprintf("condition %s's test", n.ID)})
			}
		case "switch":
			for _, c := range cfg.Cases {
				for _, lit := range literalsFor(c.Expression, v) {
					out = append(out, seenValue{lit, fmt.Sprintf("switch %s's case %s", n.ID, c.Label)})
				}
			}
		}
	}
	return out
}

func literalsFor(expr, v string) []string {
	var out []string
	for _, m := range literalTest.FindAllStringSubmatch(expr, -1) {
		name, lit := m[1], m[2]
		if name == "" {
			name, lit = m[4], m[3]
		}
		if name != v {
			continue
		}
		var s string
		if json.Unmarshal([]byte(`"`+lit+`"`), &s) == nil {
			out = append(out, s)
		}
	}
	return out
}

func hasFailureEdge(g *graph.Graph, id string) bool {
	for _, e := range g.Outgoing(id) {
		if e.Label == vocab.LabelFailure {
			return true
		}
	}
	return false
}

// replyAlternatives are the replies explored for the question a run paused
// at: each option slot it stored and a reply matching none (options mode),
// or one free-text reply; then no reply.
func (x *explorer) replyAlternatives(paused *engine.Result) []alternative {
	if paused.Pause.Kind != awaitreply.Kind {
		return []alternative{{what: "no reply (" + paused.Pause.Kind + " waits for a decision)", stop: true}}
	}
	st, err := awaitreply.DecodeState(paused.Pause.State)
	if err != nil {
		return []alternative{{what: "no reply", stop: true}}
	}
	var alts []alternative
	if st.MatchMode == "options" {
		for i := range st.Options {
			slot := strconv.Itoa(i + 1)
			alts = append(alts, alternative{what: fmt.Sprintf("reply %q (option %d)", slot, i+1), reply: slot})
		}
		alts = append(alts, alternative{what: fmt.Sprintf("reply %q (matching no option)", noMatchReply), reply: noMatchReply})
	} else {
		alts = append(alts, alternative{what: `reply "yes"`, reply: "yes"})
	}
	return append(alts, alternative{what: "no reply", stop: true})
}

// explore walks paths depth first until every decision has been tried
// each way or maxPaths paths ran.
func (x *explorer) explore(ctx context.Context, maxPaths int) ([]*exploredPath, bool, error) {
	var paths []*exploredPath
	stack := [][]decision{nil}
	for len(stack) > 0 {
		if len(paths) == maxPaths {
			return paths, true, nil
		}
		prefix := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p, err := x.walk(ctx, prefix)
		if err != nil {
			return paths, false, err
		}
		paths = append(paths, p)
		// Each decision met after the prefix opens its other alternatives,
		// pushed so that the earliest decision's are walked first.
		for j := len(p.decisions) - 1; j >= len(prefix); j-- {
			for k := p.decisions[j].alts - 1; k >= 1; k-- {
				next := append(append([]decision(nil), p.decisions[:j]...), decision{key: p.decisions[j].key, alt: k, alts: p.decisions[j].alts})
				stack = append(stack, next)
			}
		}
	}
	return paths, false, nil
}
