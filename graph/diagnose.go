package graph

import (
	"strings"

	"github.com/wetel/wetel/node"
)

// Diagnostic codes: likely problems that never block publishing.
const (
	DiagSuccessWithoutFailure   = "SUCCESS_WITHOUT_FAILURE"
	DiagFailureEdgeUnroutable   = "FAILURE_EDGE_ON_UNROUTABLE_NODE"
	DiagRetryNotIdempotent      = "RETRY_NOT_IDEMPOTENT"
	DiagRouterNoFallback        = "ROUTER_NO_FALLBACK"
	DiagBranchNeverTaken        = "BRANCH_NEVER_TAKEN"
	DiagConditionEdgeLabel      = "CONDITION_EDGE_LABEL"
	DiagLoopVisitsDisagree      = "LOOP_MAX_VISITS_DISAGREE"
	DiagLoopNeverRepeats        = "LOOP_NEVER_REPEATS"
	DiagIgnoredOption           = "IGNORED_OPTION"
	DiagConditionMissingOutcome = "CONDITION_MISSING_BRANCH"
)

// Diagnose reports likely problems in a graph, draft or published. It reads
// whatever it can of an invalid graph and never fails.
func Diagnose(g *Graph, reg *node.Registry) []Problem {
	v := newView(g, reg)
	var out []Problem
	for i := range g.Nodes {
		n, spec, cfg := &g.Nodes[i], v.specs[i], v.cfgs[i]
		if spec == nil || cfg == nil || n.ID == "" {
			continue
		}
		out = append(out, v.diagnoseEdges(n, spec, cfg)...)
		out = append(out, diagnoseOptions(n, spec, cfg)...)
		out = append(out, diagnoseRetry(n, spec, cfg)...)
	}
	out = append(out, v.diagnoseLoops()...)
	return out
}

func (v *view) diagnoseEdges(n *Node, spec *node.Spec, cfg map[string]any) []Problem {
	var out []Problem
	diag := func(code string, e *Edge, format string, args ...any) {
		p := nodeProblem(code, n.ID, "", format, args...)
		if e != nil {
			p.EdgeID = e.ID
		}
		out = append(out, p)
	}
	hasSuccess, hasFailure := v.hasLabel(n.ID, LabelSuccess), v.hasLabel(n.ID, LabelFailure)
	if spec.FailureEdges && hasSuccess && !hasFailure {
		diag(DiagSuccessWithoutFailure, nil, "Node %q has a 'success' edge but no 'failure' edge, so a failure still fails the whole run.", n.ID)
	}
	for _, e := range v.out[n.ID] {
		if e.Label == LabelLoopExhausted {
			continue
		}
		if !spec.FailureEdges && (e.Label == LabelSuccess || e.Label == LabelFailure) && !v.isOwnLabel(spec, cfg, e.Label) {
			diag(DiagFailureEdgeUnroutable, e, "Edge %q out of %s node %q is labeled %q, but %s.", e.ID, n.Type, n.ID, e.Label, unroutableWhy(spec))
			continue
		}
		switch {
		case spec.Routing == node.RouteAll && n.Type == "end_session":
			diag(DiagBranchNeverTaken, e, "Edge %q is never taken: the run ends at end_session node %q.", e.ID, n.ID)
		case spec.FailureEdges && (hasSuccess || hasFailure) && e.Label != LabelSuccess && e.Label != LabelFailure:
			diag(DiagBranchNeverTaken, e, "Edge %q is never taken: node %q routes by its 'success' and 'failure' edges, and never follows its other outgoing edges.", e.ID, n.ID)
		case spec.Routing == node.RouteValue && e.Label == "":
			diag(DiagBranchNeverTaken, e, "Edge %q out of router %q has no label, so no value of its variable can select it.", e.ID, n.ID)
		case spec.Routing == node.RouteBool && e.Label != LabelTrue && e.Label != LabelFalse:
			diag(DiagConditionEdgeLabel, e, "Edge %q out of condition %q is labeled %q; condition edges must be labeled exactly 'true' or 'false', and this one fails the run when the condition is evaluated.", e.ID, n.ID, e.Label)
		case spec.Routing == node.RouteOutcome && !v.isOwnLabel(spec, cfg, e.Label):
			diag(DiagBranchNeverTaken, e, "Edge %q out of %s node %q is labeled %q, which is not one of its outcomes (%s).", e.ID, n.Type, n.ID, e.Label, strings.Join(outcomes(spec, cfg), ", "))
		}
	}
	if spec.Routing == node.RouteBool {
		for _, l := range []string{LabelTrue, LabelFalse} {
			if !v.hasLabel(n.ID, l) {
				diag(DiagConditionMissingOutcome, nil, "Condition %q has no edge labeled '%s': when the expression is %s, that branch stops there.", n.ID, l, l)
			}
		}
	}
	if spec.Routing == node.RouteValue {
		if t, _ := cfg["defaultTarget"].(string); t == "" {
			diag(DiagRouterNoFallback, nil, "Router %q has no defaultTarget: a value that matches none of its edge labels fails the run.", n.ID)
		}
	}
	return out
}

// isOwnLabel reports whether label is one the node's routing gives a meaning.
func (v *view) isOwnLabel(spec *node.Spec, cfg map[string]any, label string) bool {
	switch spec.Routing {
	case node.RouteValue:
		return true
	case node.RouteOutcome:
		for _, o := range outcomes(spec, cfg) {
			if o == label {
				return true
			}
		}
	case node.RouteCase:
		if list, ok := cfg["cases"].([]any); ok {
			for _, c := range list {
				if m, ok := c.(map[string]any); ok && m["label"] == label {
					return true
				}
			}
		}
	}
	return false
}

// outcomes are the labels a RouteOutcome node can take; unanswered only in
// options mode (seed 000: "required, and only reachable, when matchMode is 'options'").
func outcomes(spec *node.Spec, cfg map[string]any) []string {
	if spec.Type == "await_reply" {
		if mode, _ := cfg["matchMode"].(string); mode != "options" {
			return []string{LabelAnswered}
		}
	}
	return spec.Outcomes
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

func diagnoseRetry(n *Node, spec *node.Spec, cfg map[string]any) []Problem {
	retry, ok := cfg[node.FieldRetry].(map[string]any)
	if !spec.Retry || !ok {
		return nil
	}
	if idem, _ := retry["idempotent"].(bool); idem || isGET(cfg) || hasIdempotencyKey(cfg) {
		return nil
	}
	var unsafe []string
	if on, ok := retry["on"].([]any); ok {
		for _, c := range on {
			if c == "TIMEOUT" || c == "UPSTREAM_ERROR" {
				unsafe = append(unsafe, c.(string))
			}
		}
	}
	if len(unsafe) == 0 {
		return nil
	}
	return []Problem{nodeProblem(DiagRetryNotIdempotent, n.ID, "retry.on",
		"Node %q lists %s in retry.on, but a request that timed out or got a 5xx may have reached the service, so it is resent only when the node is idempotent (retry.idempotent: true, a GET, or an Idempotency-Key header).",
		n.ID, strings.Join(unsafe, " and "))}
}

func isGET(cfg map[string]any) bool {
	m, _ := cfg["method"].(string)
	return strings.EqualFold(m, "GET")
}

func hasIdempotencyKey(cfg map[string]any) bool {
	h, _ := cfg["headers"].(map[string]any)
	for k := range h {
		if strings.EqualFold(k, "Idempotency-Key") {
			return true
		}
	}
	return false
}

func maxVisitsOf(cfg map[string]any) (int, bool) {
	if f, ok := cfg[node.FieldMaxVisits].(float64); ok && f >= 1 && f <= node.MaxVisitsCeiling {
		return int(f), true
	}
	return node.DefaultMaxVisits, false
}
