package condition

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// rules: the two outgoing edges must be labeled exactly 'true' and 'false'.
var rules = node.Rules{Edge: checkEdge, Diagnose: diagnose}

func checkEdge(n *node.View, e node.Edge) []node.Problem {
	if e.Label == vocab.LabelTrue || e.Label == vocab.LabelFalse {
		return nil
	}
	return []node.Problem{node.Problemf(node.DiagConditionEdgeLabel, "", "Edge %q out of condition %q is labeled %q; condition edges must be labeled exactly 'true' or 'false', and this one fails the run when the condition is evaluated.", e.ID, n.ID, e.Label)}
}

func diagnose(n *node.View) []node.Problem {
	var out []node.Problem
	for _, l := range []string{vocab.LabelTrue, vocab.LabelFalse} {
		if !n.HasLabel(l) {
			out = append(out, node.Problemf(node.DiagConditionMissingOutcome, "", "Condition %q has no edge labeled '%s': when the expression is %s, that branch stops there.", n.ID, l, l))
		}
	}
	return out
}
