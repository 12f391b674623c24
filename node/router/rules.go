package router

import "github.com/wetel/wetel/node"

// rules: every label is a route value, so success and failure are ordinary
// values here; an unlabeled edge and a missing defaultTarget are diagnosed.
var rules = node.Rules{AnyLabel: true, Edge: checkEdge, Diagnose: diagnose}

func checkEdge(n *node.View, e node.Edge) []node.Problem {
	if e.Label != "" {
		return nil
	}
	return []node.Problem{node.Problemf(node.DiagBranchNeverTaken, "", "Edge %q out of router %q has no label, so no value of its variable can select it.", e.ID, n.ID)}
}

func diagnose(n *node.View) []node.Problem {
	if n.String("defaultTarget") != "" {
		return nil
	}
	return []node.Problem{node.Problemf(node.DiagRouterNoFallback, "", "Router %q has no defaultTarget: a value that matches none of its edge labels fails the run.", n.ID)}
}
