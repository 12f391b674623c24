package graph

import (
	"strings"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// Diagnostic codes: likely problems that never block publishing. The codes
// a type's own rules report are declared in node, beside the rules.
const (
	DiagSuccessWithoutFailure   = "SUCCESS_WITHOUT_FAILURE"
	DiagFailureEdgeUnroutable   = "FAILURE_EDGE_ON_UNROUTABLE_NODE"
	DiagRetryNotIdempotent      = "RETRY_NOT_IDEMPOTENT"
	DiagRouterNoFallback        = node.DiagRouterNoFallback
	DiagBranchNeverTaken        = node.DiagBranchNeverTaken
	DiagConditionEdgeLabel      = node.DiagConditionEdgeLabel
	DiagLoopVisitsDisagree      = "LOOP_MAX_VISITS_DISAGREE"
	DiagLoopNeverRepeats        = "LOOP_NEVER_REPEATS"
	DiagIgnoredOption           = node.DiagIgnoredOption
	DiagConditionMissingOutcome = node.DiagConditionMissingOutcome
	// DiagNodeTypeUnavailable: the node's type does not run where the graph
	// is checked for (see At), so a live run fails there.
	DiagNodeTypeUnavailable = "NODE_TYPE_UNAVAILABLE"
)

// Option tunes Diagnose.
type Option func(*options)

type options struct{ place node.Place }

// At says where the graph is to run (node.OnServer for `wetel serve`,
// node.Offline for `wetel run`), so Diagnose reports the nodes whose type
// does not run there (NODE_TYPE_UNAVAILABLE). Without it, Diagnose does not
// guess.
func At(p node.Place) Option { return func(o *options) { o.place = p } }

// Diagnose reports likely problems in a graph, draft or published. It reads
// whatever it can of an invalid graph and never fails.
func Diagnose(g *Graph, reg *node.Registry, opts ...Option) []Problem {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	v := newView(g, reg)
	var out []Problem
	for i := range g.Nodes {
		n, spec, cfg := &g.Nodes[i], v.specs[i], v.cfgs[i]
		if spec == nil || cfg == nil || n.ID == "" {
			continue
		}
		if o.place != 0 && !spec.Runs.Has(o.place) {
			out = append(out, unavailable(n, spec, o.place))
		}
		out = append(out, v.diagnoseEdges(i)...)
		out = append(out, v.runRule(i, spec.Rules.Diagnose)...)
		out = append(out, diagnoseRetryFields(n, spec, cfg)...)
		out = append(out, v.diagnoseRetry(i)...)
	}
	out = append(out, v.diagnoseLoops()...)
	return out
}

// unavailable: a type that does not run at the place, worded for it; mock
// mode is the way to run it when the type has one.
func unavailable(n *Node, spec *node.Spec, at node.Place) Problem {
	if spec.Mockable {
		return nodeProblem(DiagNodeTypeUnavailable, n.ID, "type", "Node %q: %s nodes are not available %s, so a live run fails there; run it in mock mode, with a mockResponse or mockError on the node.", n.ID, n.Type, at.Where())
	}
	return nodeProblem(DiagNodeTypeUnavailable, n.ID, "type", "Node %q: %s nodes are not available %s, so every run that reaches the node fails there; the type has no mock mode to stand in for it.", n.ID, n.Type, at.Where())
}

// diagnoseEdges runs the edge checks every type shares, then the type's own
// Edge rule on each edge they had nothing to say about.
func (v *view) diagnoseEdges(i int) []Problem {
	n, spec := &v.g.Nodes[i], v.specs[i]
	var out []Problem
	diag := func(code string, e *Edge, format string, args ...any) {
		p := nodeProblem(code, n.ID, "", format, args...)
		if e != nil {
			p.EdgeID = e.ID
		}
		out = append(out, p)
	}
	hasSuccess, hasFailure := v.hasLabel(n.ID, vocab.LabelSuccess), v.hasLabel(n.ID, vocab.LabelFailure)
	if spec.FailureEdges && hasSuccess && !hasFailure {
		diag(DiagSuccessWithoutFailure, nil, "Node %q has a 'success' edge but no 'failure' edge, so a failure still fails the whole run.", n.ID)
	}
	for _, e := range v.out[n.ID] {
		switch {
		case e.Label == vocab.LabelLoopExhausted:
		case !spec.FailureEdges && (e.Label == vocab.LabelSuccess || e.Label == vocab.LabelFailure) && !v.routesOn(i, e.Label):
			diag(DiagFailureEdgeUnroutable, e, "Edge %q out of %s node %q is labeled %q, but %s.", e.ID, n.Type, n.ID, e.Label, unroutableWhy(spec))
		case spec.FailureEdges && (hasSuccess || hasFailure) && e.Label != vocab.LabelSuccess && e.Label != vocab.LabelFailure:
			diag(DiagBranchNeverTaken, e, "Edge %q is never taken: node %q routes by its 'success' and 'failure' edges, and never follows its other outgoing edges.", e.ID, n.ID)
		case spec.Routing == node.RouteOutcome && !v.routesOn(i, e.Label):
			diag(DiagBranchNeverTaken, e, "Edge %q out of %s node %q is labeled %q, which is not one of its outcomes (%s).", e.ID, n.Type, n.ID, e.Label, strings.Join(spec.RoutesOn(v.nodeView(i)), ", "))
		case spec.Rules.Edge != nil:
			for _, p := range fromRules(n.ID, spec.Rules.Edge(v.nodeView(i), node.Edge{ID: e.ID, Target: e.Target, Label: e.Label})) {
				if p.EdgeID == "" {
					p.EdgeID = e.ID
				}
				out = append(out, p)
			}
		}
	}
	return out
}

func unroutableWhy(spec *node.Spec) string {
	switch spec.Routing {
	case node.RouteBool, node.RouteCase:
		return "a " + spec.Type + " follows only its own branch labels, so it is never taken as a failure route"
	case node.RouteOutcome:
		return spec.Type + " routes by its own outcome labels, so it is never taken"
	}
	return spec.Type + " nodes have no failure routing: the edge is followed on every run like any other, and a failure still fails the run"
}

func maxVisitsOf(cfg map[string]any) (int, bool) { return node.MaxVisitsOf(cfg) }
