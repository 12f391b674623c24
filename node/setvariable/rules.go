package setvariable

import "github.com/wetel/wetel/node"

// rules: an assignment's default only stands in for a missing value, and a
// constant is never missing.
var rules = node.Rules{
	Diagnose: func(n *node.View) []node.Problem {
		var out []node.Problem
		list, _ := n.Config["assignments"].([]any)
		for i, a := range list {
			m, ok := a.(map[string]any)
			if !ok {
				continue
			}
			_, hasValue := m["value"]
			_, hasDefault := m["default"]
			if hasValue && hasDefault {
				out = append(out, node.Problemf(node.DiagIgnoredOption, "assignments", "Node %q: assignments[%d].default is ignored: a constant value is never missing.", n.ID, i))
			}
		}
		return out
	},
}
