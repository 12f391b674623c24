package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// Exploration (`wetel run --explore`) walks the paths a graph allows by
// driving the decisions a scenario can script, and nothing else: each
// mockable node's outcome (its own mock, each value a router reading its
// output routes on, a failure when it has a failure edge), and each
// question's reply (every option slot, a reply matching none, free text,
// or no reply at all). Conditions and switches take only the branches
// those outcomes make reachable, so an edge no explored path takes is
// reported rather than forced. Every path runs on the same offline turn
// service as wetel run and wetel test.

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

// explorer holds what every path shares: the graph, its decision
// alternatives per node, and one offline store that each path publishes
// its mocks to and opens a fresh session in.
type explorer struct {
	graph    *graph.Graph
	message  string
	nodeAlts map[string][]alternative
	off      *offline
}

// exploredPath is one path's conversation.
type exploredPath struct {
	mocks     []mockOverride // the overrides the path ran with
	choices   []string       // what each decision was, in order
	turns     []turnOutput
	decisions []decision
}

func newExplorer(g *graph.Graph, message string) *explorer {
	x := &explorer{graph: g, message: message, nodeAlts: map[string][]alternative{}}
	for _, n := range g.Nodes {
		if alts := nodeAlternatives(g, n); len(alts) > 1 {
			x.nodeAlts[n.ID] = alts
		}
	}
	return x
}

// nodeAlternatives are the outcomes explored for a mockable node: its own
// mock first, then each route a router reading its output variable has, then
// a failure when the node has a failure edge and mocks none.
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
	for _, r := range routersReading(g, outVar) {
		for _, e := range g.Outgoing(r) {
			if e.Label == "" || seen[e.Label] {
				continue
			}
			seen[e.Label] = true
			b, _ := json.Marshal(e.Label)
			o := mockOverride{nodeID: n.ID, field: "mockResponse", value: b}
			alts = append(alts, alternative{what: fmt.Sprintf("mockResponse %s (router %s's route)", b, r), mock: &o})
		}
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

// routersReading lists the routers whose variable is exactly v.
func routersReading(g *graph.Graph, v string) []string {
	if v == "" {
		return nil
	}
	var out []string
	for _, n := range g.Nodes {
		if n.Type != "router" {
			continue
		}
		var cfg struct {
			Variable string `json:"variable"`
		}
		if json.Unmarshal(n.Config, &cfg) == nil && cfg.Variable == v {
			out = append(out, n.ID)
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
// at: each option slot and a reply matching none (options mode), or one
// free-text reply; then no reply.
func (x *explorer) replyAlternatives(nodeID string, vars json.RawMessage) []alternative {
	n, ok := x.graph.NodeByID(nodeID)
	if !ok || n.Type != "await_reply" {
		return []alternative{{what: "no decision (offline)", stop: true}}
	}
	var cfg struct {
		MatchMode   string `json:"matchMode"`
		OptionsFrom string `json:"optionsFrom"`
	}
	_ = json.Unmarshal(n.Config, &cfg)
	var alts []alternative
	if cfg.MatchMode == "options" {
		var v map[string]any
		_ = json.Unmarshal(vars, &v)
		list, _ := node.Lookup(v, cfg.OptionsFrom)
		items, _ := list.([]any)
		for i := range min(len(items), 20) {
			alts = append(alts, alternative{what: fmt.Sprintf("reply %q (option %d)", strconv.Itoa(i+1), i+1), reply: strconv.Itoa(i + 1)})
		}
		alts = append(alts, alternative{what: fmt.Sprintf("reply %q (matching no option)", noMatchReply), reply: noMatchReply})
	} else {
		alts = append(alts, alternative{what: `reply "yes"`, reply: "yes"})
	}
	return append(alts, alternative{what: "no reply", stop: true})
}

// walk runs one path: the decisions in prefix are taken as given, every
// other as its first alternative, each recorded in the order met.
func (x *explorer) walk(ctx context.Context, prefix []decision) (*exploredPath, error) {
	p := &exploredPath{}
	given := map[string]int{}
	for _, d := range prefix {
		given[d.key] = d.alt
	}
	met := map[string]bool{}
	take := func(key string, alts []alternative) alternative {
		alt := given[key]
		met[key] = true
		p.decisions = append(p.decisions, decision{key: key, alt: alt, alts: len(alts)})
		return alts[alt]
	}
	// Node outcomes are fixed for the whole conversation; the ones the
	// path meets are found as its runs visit them. A node met for the
	// first time in a later turn ran nowhere before, so fixing its
	// outcome from the start changes nothing earlier.
	g, err := x.variant(given)
	if err != nil {
		return nil, err
	}
	if err := x.off.restart(ctx, g); err != nil {
		return nil, err
	}
	message := x.message
	for range explorerMaxTurns {
		res, err := x.off.send(ctx, message)
		if err != nil {
			break // the session ended
		}
		t := turnJSON(message, res, x.off.capture)
		p.turns = append(p.turns, t)
		for _, r := range t.Runs {
			for _, row := range traceRows(r) {
				if alts, ok := x.nodeAlts[row.NodeID]; ok && !met["node:"+row.NodeID] {
					p.choices = append(p.choices, row.NodeID+": "+take("node:"+row.NodeID, alts).what)
				}
			}
		}
		last := t.Runs[len(t.Runs)-1]
		rows := traceRows(last)
		if last.Status != vocab.RunAwaitingInput || len(rows) == 0 {
			break
		}
		at := rows[len(rows)-1].NodeID
		alt := take(fmt.Sprintf("reply:%d", len(p.turns)), x.replyAlternatives(at, last.Vars))
		p.choices = append(p.choices, at+": "+alt.what)
		if alt.stop {
			break
		}
		message = alt.reply
	}
	for _, o := range x.overrides(given) {
		if met["node:"+o.nodeID] {
			p.mocks = append(p.mocks, o)
		}
	}
	return p, nil
}

// variant is the graph with the node outcomes given chose, and the
// first alternative of every other node.
func (x *explorer) variant(given map[string]int) (*graph.Graph, error) {
	b, err := json.Marshal(x.graph)
	if err != nil {
		return nil, err
	}
	g, err := graph.Decode(b)
	if err != nil {
		return nil, err
	}
	return g, applyMocks(g, x.overrides(given))
}

// overrides are the mocks the chosen node outcomes write, in node order.
func (x *explorer) overrides(given map[string]int) []mockOverride {
	var out []mockOverride
	for _, n := range x.graph.Nodes {
		if alts, ok := x.nodeAlts[n.ID]; ok {
			if a := alts[given["node:"+n.ID]]; a.mock != nil {
				out = append(out, *a.mock)
			}
		}
	}
	return out
}

func nodeKey(key string) (string, bool) {
	if len(key) > 5 && key[:5] == "node:" {
		return key[5:], true
	}
	return "", false
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

// restart publishes g (an unchanged graph keeps its version, and its
// compiled plan) and starts a fresh session on it.
func (off *offline) restart(ctx context.Context, g *graph.Graph) error {
	doc, err := json.Marshal(g)
	if err != nil {
		return err
	}
	if err := off.store.SaveDraft(ctx, off.ws, 1, doc); err != nil {
		return err
	}
	if _, err := off.store.Publish(ctx, off.ws, 1, doc, "wetel run --explore"); err != nil {
		return err
	}
	off.session, err = off.store.CreateSession(ctx, store.Session{WorkspaceID: off.ws, AgentID: off.session.AgentID, Status: store.SessionOpen})
	return err
}

type rowHead struct {
	NodeID string `json:"nodeId"`
	Status string `json:"status"`
}

func traceRows(r runJSON) []rowHead {
	var rows []rowHead
	_ = json.Unmarshal(r.NodeTrace, &rows)
	return rows
}
