package graph

import (
	"fmt"
	"strings"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// CheckPublish runs every check publishing applies: the save checks, then the
// graph's shape (seed: "What publishing checks"), required config fields,
// failure-needs-success, each type's own publish rules (node.Rules.Publish:
// the switch edge labels), and that every node-id field names a node.
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
		if spec.FailureEdges && v.hasLabel(n.ID, vocab.LabelFailure) && !v.hasLabel(n.ID, vocab.LabelSuccess) {
			errs = append(errs, nodeProblem(CodeFailureWithoutSuccess, n.ID, "", "Node %q has an edge labeled 'failure' but none labeled 'success'; failure routing needs both.", n.ID))
		}
		errs = append(errs, v.runRule(i, spec.Rules.Publish)...)
		for _, r := range v.refs(i) {
			if v.index(r.target) < 0 {
				errs = append(errs, nodeProblem(CodeDanglingEdge, n.ID, r.field, "Node %q has %s %q, which is not a node of this workflow.", n.ID, r.field, r.target))
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

// checkStartAndReach: exactly one start node (of the entry type, node.Spec.Entry),
// and a path from it to every node.
func (v *view) checkStartAndReach() Errors {
	var starts []string
	for i, n := range v.g.Nodes {
		if s := v.specs[i]; s != nil && s.Entry {
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

// reachable walks edges and node-id fields (a router's defaultTarget), which
// are implicit edges.
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
		if i := v.index(id); i >= 0 {
			for _, r := range v.refs(i) {
				next = append(next, r.target)
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
	if i, ok := v.idx[id]; ok {
		return i
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

func quoteJoin(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
