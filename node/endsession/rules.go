package endsession

import "github.com/wetel/wetel/node"

// rules: nothing after an end_session runs, and its confirmation text is
// only asked with requireConfirmation.
var rules = node.Rules{Edge: checkEdge, Diagnose: diagnose}

func checkEdge(n *node.View, e node.Edge) []node.Problem {
	return []node.Problem{node.Problemf(node.DiagBranchNeverTaken, "", "Edge %q is never taken: the run ends at end_session node %q.", e.ID, n.ID)}
}

func diagnose(n *node.View) []node.Problem {
	if !n.Bool("requireConfirmation") && n.Has("confirmationTemplate") {
		return []node.Problem{n.Ignored("confirmationTemplate", "requireConfirmation is not true")}
	}
	return nil
}
