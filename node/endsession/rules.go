package endsession

import "github.com/wetel/wetel/node"

// rules: nothing after an end_session runs, but for its 'declined' edge
// when it asks for confirmation; its confirmation text is only asked with
// requireConfirmation; and the evaluation needs models.
var rules = node.Rules{Edge: checkEdge, Diagnose: diagnose, Save: checkSave}

func checkEdge(n *node.View, e node.Edge) []node.Problem {
	if e.Label == LabelDeclined && n.Bool("requireConfirmation") {
		return nil
	}
	return []node.Problem{node.Problemf(node.DiagBranchNeverTaken, "", "Edge %q is never taken: the run ends at end_session node %q.", e.ID, n.ID)}
}

func diagnose(n *node.View) []node.Problem {
	if !n.Bool("requireConfirmation") && n.Has("confirmationTemplate") {
		return []node.Problem{n.Ignored("confirmationTemplate", "requireConfirmation is not true")}
	}
	return nil
}

// CodeEvaluationUnavailable refuses runEvaluation until the platform has
// models to evaluate a session with.
const CodeEvaluationUnavailable = "EVALUATION_UNAVAILABLE"

func checkSave(n *node.View) []node.Problem {
	if n.Bool("runEvaluation") {
		return []node.Problem{node.Problemf(CodeEvaluationUnavailable, "runEvaluation",
			"end_session node %q sets runEvaluation, but a post-session evaluation needs the workspace's model, and models are not available in this build yet; leave runEvaluation off", n.ID)}
	}
	return nil
}
