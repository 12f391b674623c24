package awaitreply

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// rules are await_reply's edge rules and diagnostics.
var rules = node.Rules{Labels: labels, Save: checkEdges, Diagnose: diagnose}

func optionsMode(n *node.View) bool { return n.String("matchMode") == "options" }

// labels: 'unanswered' is "required, and only reachable, when matchMode is 'options'" (seed 000).
func labels(n *node.View) []string {
	if optionsMode(n) {
		return []string{vocab.LabelAnswered, vocab.LabelUnanswered}
	}
	return []string{vocab.LabelAnswered}
}

// checkEdges applies seed 000's edge rules, at save and at publish.
func checkEdges(n *node.View) []node.Problem {
	var out []node.Problem
	if !n.HasLabel(vocab.LabelAnswered) {
		out = append(out, node.Problemf(node.CodeAwaitReplyEdges, "", "AWAIT_REPLY node %q has no outgoing edge labeled 'answered' — every await_reply node needs one, for the reply to continue along", n.ID))
	}
	if optionsMode(n) && !n.HasLabel(vocab.LabelUnanswered) {
		out = append(out, node.Problemf(node.CodeAwaitReplyEdges, "", "AWAIT_REPLY node %q uses matchMode 'options' but has no outgoing edge labeled 'unanswered' — a reply that matches none of the offered options must have somewhere to go", n.ID))
	}
	return out
}

// diagnose reports the options the node ignores or clamps.
func diagnose(n *node.View) []node.Problem {
	var out []node.Problem
	if !optionsMode(n) {
		for _, f := range []string{"optionsFrom", "optionIdField", "optionLabelField"} {
			if n.Has(f) {
				out = append(out, n.Ignored(f, "the node is in free_text mode, where every reply is the answer"))
			}
		}
	}
	// Seed 000: "the node itself never runs twice in one run regardless of what maxVisits says".
	if mv, explicit := n.MaxVisits(); explicit && mv > 1 {
		out = append(out, n.Ignored(node.FieldMaxVisits, "the question always ends the turn, so the node never runs twice in one run"))
	}
	return append(out, n.ClampedExpiry("expiresAfterSeconds", MaxExpiry)...)
}
