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
	out = append(out, n.ClampedExpiry("expiresAfterSeconds", MaxExpiry)...)
	return append(out, uncountedReask(n)...)
}

// DiagUncountedReask is await_reply's diagnostic for an ask-again loop
// that nothing counts.
const DiagUncountedReask = "AWAIT_REPLY_UNCOUNTED_REASK"

// uncountedReask warns of seed 000's gotcha: "an unanswered branch routing
// back into the await_reply node that just asked will re-ask, once per
// turn, indefinitely ... If you want a hard 'I've asked three times,
// escalate' rule, count the attempts yourself in a workflow variable and
// gate the back-edge on a condition node." It follows every path from the
// node's unanswered edge and reports one that comes back to the node with
// no condition, switch or router on the way: nothing could stop that loop.
// A way back from the answered edge is a conversation that goes on (a menu
// asked again after each answer), not a retry, and is left alone.
func uncountedReask(n *node.View) []node.Problem {
	seen := map[string]bool{}
	var stack []string
	for _, e := range n.Out {
		if e.Label == vocab.LabelUnanswered {
			stack = append(stack, e.Target)
		}
	}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id == n.ID {
			return []node.Problem{node.Problemf(DiagUncountedReask, "",
				"Node %q: its unanswered branch leads back to it with no condition, switch or router on the way, so it asks again once per reply without end (maxVisits bounds a run, and each reply is a new run). Count the attempts in a variable and gate the way back on a condition, to stop after a few tries.", n.ID)}
		}
		if seen[id] || n.Graph.Branches(id) {
			continue
		}
		seen[id] = true
		for _, e := range n.Graph.Out(id) {
			stack = append(stack, e.Target)
		}
	}
	return nil
}
