package switchnode

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// rules are the switch's edge-label rules.
var rules = node.Rules{Labels: labels, Publish: checkLabels}

// caseLabels are the node's case labels, first occurrence first.
func caseLabels(n *node.View) []string {
	var order []string
	seen := map[string]bool{}
	list, _ := n.Config["cases"].([]any)
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			if l, ok := m["label"].(string); ok && !seen[l] {
				seen[l] = true
				order = append(order, l)
			}
		}
	}
	return order
}

func labels(n *node.View) []string { return append(caseLabels(n), vocab.LabelDefault) }

// checkLabels: one edge per case label plus exactly one 'default'; publishing
// refuses a missing, repeated or extra label.
func checkLabels(n *node.View) []node.Problem {
	var out []node.Problem
	bad := func(format string, args ...any) {
		out = append(out, node.Problemf(node.CodeSwitchLabels, "", format, args...))
	}
	own := labels(n)
	for _, l := range own {
		switch c := n.CountLabel(l); {
		case c == 0 && l == vocab.LabelDefault:
			bad("Switch node %q has no edge labeled 'default'; every switch needs exactly one, for when no case is true.", n.ID)
		case c == 0:
			bad("Switch node %q has no edge labeled %q for its case %q.", n.ID, l, l)
		case c > 1:
			bad("Switch node %q has %d edges labeled %q; each label needs exactly one edge.", n.ID, c, l)
		}
	}
	for _, e := range n.Out {
		if contains(own, e.Label) || e.Label == vocab.LabelLoopExhausted {
			continue
		}
		if e.Label == "" {
			bad("Switch node %q has an unlabeled edge %q; each edge of a switch is labeled with a case or 'default'.", n.ID, e.ID)
		} else {
			bad("Switch node %q has an edge %q labeled %q, which is not one of its cases or 'default'.", n.ID, e.ID, e.Label)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}
