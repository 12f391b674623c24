package engine

import (
	"encoding/json"
	"fmt"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// Plan is a graph compiled for running: executors built, templates parsed,
// expressions compiled and edges bucketed by label, once, so a run does no
// parsing and no lookups by string beyond the routing value.
type Plan struct {
	Graph *graph.Graph
	nodes []planNode
	index map[string]int
	start int
}

type planNode struct {
	id, typ, label string
	spec           *node.Spec
	exec           node.Executor
	maxVisits      int
	explicitMax    bool // maxVisits written on the node, even as 1

	mockResponse    any
	hasMockResponse bool
	mockError       *failure.Error
	mockOutputVar   string
	// The mock error's class and redacted text never change, so they are
	// worked out once here rather than on every mocked failure.
	mockErrorCode failure.Code
	mockErrorText string

	// failureRouting: the type allows failure edges and the node has a
	// success or failure edge, so it follows one of those and nothing else.
	failureRouting          bool
	all, success, failureTo []int
	exhausted               []int
	labels                  map[string][]int
	badLabel                *graph.Edge // condition edge labeled other than true/false
	defaultTarget           int
}

// Compile checks g as publishing would and builds its plan. A graph that
// fails the publish checks is refused with graph.Errors.
func Compile(g *graph.Graph, reg *node.Registry) (*Plan, error) {
	if errs := graph.CheckPublish(g, reg); len(errs) > 0 {
		return nil, errs
	}
	p := &Plan{Graph: g, nodes: make([]planNode, len(g.Nodes)), index: make(map[string]int, len(g.Nodes))}
	for i := range g.Nodes {
		p.index[g.Nodes[i].ID] = i
	}
	for i := range g.Nodes {
		if err := p.compileNode(i, reg); err != nil {
			return nil, err
		}
		if p.nodes[i].spec.Entry {
			p.start = i
		}
	}
	for i := range g.Edges {
		p.addEdge(&g.Edges[i])
	}
	return p, nil
}

// shared holds the config fields the engine itself acts on.
type shared struct {
	MaxVisits    *int            `json:"maxVisits"`
	MockResponse json.RawMessage `json:"mockResponse"`
	MockError    *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"mockError"`
}

func (p *Plan) compileNode(i int, reg *node.Registry) error {
	n := &p.Graph.Nodes[i]
	spec, ok := reg.Lookup(n.Type)
	if !ok {
		return fmt.Errorf("node %q: unknown type %q", n.ID, n.Type)
	}
	var sh shared
	if err := json.Unmarshal(n.Config, &sh); err != nil {
		return fmt.Errorf("node %q: config: %w", n.ID, err)
	}
	exec, err := spec.Build(node.BuildInput{NodeID: n.ID, Type: n.Type, Config: n.Config})
	if err != nil {
		return fmt.Errorf("node %q: %w", n.ID, err)
	}
	pn := &p.nodes[i]
	*pn = planNode{id: n.ID, typ: n.Type, label: n.Label, spec: spec, exec: exec, maxVisits: node.DefaultMaxVisits, defaultTarget: -1}
	if sh.MaxVisits != nil {
		pn.maxVisits, pn.explicitMax = *sh.MaxVisits, true
	}
	if spec.Mockable {
		if len(sh.MockResponse) > 0 {
			if err := json.Unmarshal(sh.MockResponse, &pn.mockResponse); err != nil {
				return fmt.Errorf("node %q: mockResponse: %w", n.ID, err)
			}
			pn.hasMockResponse = true
		}
		if sh.MockError != nil {
			pn.mockError = &failure.Error{Code: failure.Code(sh.MockError.Code), Message: sh.MockError.Message}
			if pn.mockError.Message == "" {
				pn.mockError.Message = "mocked failure: " + sh.MockError.Code
			}
			pn.mockErrorCode = failure.Classify(pn.mockError)
			pn.mockErrorText = failure.Sanitize(pn.mockError.Message, nil)
		}
		var out map[string]json.RawMessage
		_ = json.Unmarshal(n.Config, &out)
		_ = json.Unmarshal(out[spec.MockOutput], &pn.mockOutputVar)
	}
	if spec.Routing == node.RouteValue {
		var cfg struct {
			DefaultTarget string `json:"defaultTarget"`
		}
		_ = json.Unmarshal(n.Config, &cfg)
		if t, ok := p.index[cfg.DefaultTarget]; ok {
			pn.defaultTarget = t
		}
	}
	return nil
}

// addEdge files an edge under its source's routing. Edges keep document
// order, which is the order the engine follows them in.
func (p *Plan) addEdge(e *graph.Edge) {
	src := &p.nodes[p.index[e.Source]]
	t := p.index[e.Target]
	if e.Label == vocab.LabelLoopExhausted {
		src.exhausted = append(src.exhausted, t)
		return
	}
	switch src.spec.Routing {
	case node.RouteAll:
		switch {
		case src.spec.FailureEdges && e.Label == vocab.LabelSuccess:
			src.success = append(src.success, t)
			src.failureRouting = true
		case src.spec.FailureEdges && e.Label == vocab.LabelFailure:
			src.failureTo = append(src.failureTo, t)
			src.failureRouting = true
		default:
			src.all = append(src.all, t)
		}
		if src.spec.Pauses && e.Label != "" {
			// A pausing node of this routing resumes down a labeled edge
			// (end_session's 'declined'): its resume looks the label up.
			if src.labels == nil {
				src.labels = map[string][]int{}
			}
			src.labels[e.Label] = append(src.labels[e.Label], t)
		}
	case node.RouteBool:
		if e.Label != vocab.LabelTrue && e.Label != vocab.LabelFalse && src.badLabel == nil {
			src.badLabel = e
		}
		fallthrough
	default:
		if src.spec.Routing == node.RouteValue && e.Label == "" {
			return // an unlabeled router edge matches no value (diagnosed)
		}
		if src.labels == nil {
			src.labels = map[string][]int{}
		}
		src.labels[e.Label] = append(src.labels[e.Label], t)
	}
}

// Has reports whether the plan has a node with the id.
func (p *Plan) Has(id string) bool {
	_, ok := p.index[id]
	return ok
}

// NodeIndex returns the index of a node id, for entering a plan elsewhere
// than start (a resumed await_reply).
func (p *Plan) NodeIndex(id string) (int, bool) {
	i, ok := p.index[id]
	return i, ok
}

// ResumeTargets returns the nodes a resumed pause continues at: the
// targets of nodeID's edges labeled label in this (the current) graph. A
// graph edit that removed the node or the edge strands the wait, and the
// resume fails with this explicit error rather than guessing (seed 000).
// kind is the paused node's type as the wait recorded it, which names a
// node the graph no longer has.
func (p *Plan) ResumeTargets(kind, nodeID, label string) ([]string, error) {
	i, ok := p.index[nodeID]
	if !ok {
		return nil, fmt.Errorf("cannot resume %s node %q: the published workflow no longer has that node", kind, nodeID)
	}
	var out []string
	for _, t := range p.nodes[i].labels[label] {
		out = append(out, p.nodes[t].id)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("cannot resume %s node %q: it has no outgoing edge labeled '%s'", p.nodes[i].typ, nodeID, label)
	}
	return out, nil
}
