package graph

import (
	"fmt"
	"strings"

	"github.com/wetel/wetel/node"
)

// CheckPublish runs every check publishing applies: the save checks, then the
// graph's shape (seed: "What publishing checks"), required config fields,
// failure-needs-success, and the switch edge labels.
func CheckPublish(g *Graph, reg *node.Registry) Errors {
	v := newView(g, reg)
	errs := v.save()
	errs = append(errs, v.checkIDs()...)
	errs = append(errs, v.checkEdgesResolve()...)
	errs = append(errs, v.checkStartAndReach()...)
	for i := range g.Nodes {
		n := &g.Nodes[i]
		spec, cfg := v.specs[i], v.cfgs[i]
		if spec == nil || cfg == nil || n.ID == "" {
			continue
		}
		for _, f := range node.MissingRequired(spec, cfg) {
			errs = append(errs, nodeProblem(CodeRequiredField, n.ID, f, "Node %q (%s) is missing the required config field %q.", n.ID, n.Type, f))
		}
		if spec.FailureEdges && v.hasLabel(n.ID, LabelFailure) && !v.hasLabel(n.ID, LabelSuccess) {
			errs = append(errs, nodeProblem(CodeFailureWithoutSuccess, n.ID, "", "Node %q has an edge labeled 'failure' but none labeled 'success'; failure routing needs both.", n.ID))
		}
		if spec.Routing == node.RouteCase {
			errs = append(errs, v.checkSwitchLabels(n, cfg)...)
		}
		if spec.Routing == node.RouteValue {
			if t, ok := cfg["defaultTarget"].(string); ok && t != "" {
				if _, found := g.NodeByID(t); !found {
					errs = append(errs, nodeProblem(CodeDanglingEdge, n.ID, "defaultTarget", "Node %q has defaultTarget %q, which is not a node of this workflow.", n.ID, t))
				}
			}
		}
	}
	return errs
}

func (v *view) checkIDs() Errors {
	var errs Errors
	seen := map[string]bool{}
	for _, n := range v.g.Nodes {
		if n.ID != "" && seen[n.ID] {
			errs = append(errs, nodeProblem(CodeDuplicateID, n.ID, "id", "Two nodes share the id %q.", n.ID))
		}
		seen[n.ID] = true
	}
	seenEdge := map[string]bool{}
	for i, e := range v.g.Edges {
		switch {
		case e.ID == "":
			errs = append(errs, Problem{Code: CodeMissingID, Message: fmt.Sprintf("The edge at position %d (from %q to %q) has no id.", i+1, e.Source, e.Target)})
		case seenEdge[e.ID]:
			errs = append(errs, Problem{Code: CodeDuplicateID, EdgeID: e.ID, Field: "id", Message: fmt.Sprintf("Two edges share the id %q.", e.ID)})
		}
		seenEdge[e.ID] = true
	}
	return errs
}

func (v *view) checkEdgesResolve() Errors {
	var errs Errors
	for _, e := range v.g.Edges {
		for _, end := range []struct{ field, id string }{{"source", e.Source}, {"target", e.Target}} {
			if _, ok := v.g.NodeByID(end.id); !ok {
				errs = append(errs, Problem{Code: CodeDanglingEdge, EdgeID: e.ID, Field: end.field,
					Message: fmt.Sprintf("Edge %q references %s node %q, which does not exist.", e.ID, end.field, end.id)})
			}
		}
	}
	return errs
}

// checkStartAndReach: exactly one start node, and a path from it to every node.
func (v *view) checkStartAndReach() Errors {
	var starts []string
	for _, n := range v.g.Nodes {
		if n.Type == "start" {
			starts = append(starts, n.ID)
		}
	}
	switch len(starts) {
	case 0:
		return Errors{{Code: CodeStartNode, Message: "Workflow has no start node; it needs exactly one."}}
	case 1:
	default:
		return Errors{{Code: CodeStartNode, Message: fmt.Sprintf("Workflow has %d start nodes (%s); it needs exactly one.", len(starts), quoteJoin(starts))}}
	}
	reached := v.reachable(starts[0])
	var errs Errors
	for _, n := range v.g.Nodes {
		if n.ID != "" && !reached[n.ID] {
			errs = append(errs, nodeProblem(CodeUnreachable, n.ID, "", "Node %q has no path from the start node; it is disconnected from the rest of the graph.", n.ID))
		}
	}
	return errs
}

// reachable walks edges and routers' defaultTarget, which is an implicit edge.
func (v *view) reachable(from string) map[string]bool {
	seen := map[string]bool{from: true}
	stack := []string{from}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		next := make([]string, 0, len(v.out[id])+1)
		for _, e := range v.out[id] {
			next = append(next, e.Target)
		}
		if i := v.index(id); i >= 0 && v.specs[i] != nil && v.specs[i].Routing == node.RouteValue && v.cfgs[i] != nil {
			if t, ok := v.cfgs[i]["defaultTarget"].(string); ok {
				next = append(next, t)
			}
		}
		for _, t := range next {
			if !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}

func (v *view) index(id string) int {
	for i := range v.g.Nodes {
		if v.g.Nodes[i].ID == id {
			return i
		}
	}
	return -1
}

func (v *view) hasLabel(id, label string) bool { return v.countLabel(id, label) > 0 }

func (v *view) countLabel(id, label string) int {
	n := 0
	for _, e := range v.out[id] {
		if e.Label == label {
			n++
		}
	}
	return n
}

// checkAwaitReplyEdges applies seed 000's edge rules, at save and at publish.
func (v *view) checkAwaitReplyEdges(n *Node, cfg map[string]any) Errors {
	var errs Errors
	if !v.hasLabel(n.ID, LabelAnswered) {
		errs = append(errs, nodeProblem(CodeAwaitReplyEdges, n.ID, "", "AWAIT_REPLY node %q has no outgoing edge labeled 'answered' — every await_reply node needs one, for the reply to continue along", n.ID))
	}
	if mode, _ := cfg["matchMode"].(string); mode == "options" && !v.hasLabel(n.ID, LabelUnanswered) {
		errs = append(errs, nodeProblem(CodeAwaitReplyEdges, n.ID, "", "AWAIT_REPLY node %q uses matchMode 'options' but has no outgoing edge labeled 'unanswered' — a reply that matches none of the offered options must have somewhere to go", n.ID))
	}
	return errs
}

// checkSwitchLabels: one edge per case label plus exactly one 'default';
// publishing refuses a missing, repeated or extra label.
func (v *view) checkSwitchLabels(n *Node, cfg map[string]any) Errors {
	var errs Errors
	cases := map[string]bool{}
	var order []string
	if list, ok := cfg["cases"].([]any); ok {
		for _, c := range list {
			if m, ok := c.(map[string]any); ok {
				if l, ok := m["label"].(string); ok && !cases[l] {
					cases[l] = true
					order = append(order, l)
				}
			}
		}
	}
	bad := func(format string, args ...any) {
		errs = append(errs, nodeProblem(CodeSwitchLabels, n.ID, "", format, args...))
	}
	for _, l := range append(order, LabelDefault) {
		switch c := v.countLabel(n.ID, l); {
		case c == 0 && l == LabelDefault:
			bad("Switch node %q has no edge labeled 'default'; every switch needs exactly one, for when no case is true.", n.ID)
		case c == 0:
			bad("Switch node %q has no edge labeled %q for its case %q.", n.ID, l, l)
		case c > 1:
			bad("Switch node %q has %d edges labeled %q; each label needs exactly one edge.", n.ID, c, l)
		}
	}
	for _, e := range v.out[n.ID] {
		if !cases[e.Label] && e.Label != LabelDefault && e.Label != LabelLoopExhausted {
			if e.Label == "" {
				bad("Switch node %q has an unlabeled edge %q; each edge of a switch is labeled with a case or 'default'.", n.ID, e.ID)
			} else {
				bad("Switch node %q has an edge %q labeled %q, which is not one of its cases or 'default'.", n.ID, e.ID, e.Label)
			}
		}
	}
	return errs
}

func quoteJoin(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
