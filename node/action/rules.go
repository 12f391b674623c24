package action

import "github.com/wetel/wetel/node"

// rules: seed, "Saving refuses retry ... on an action with fetchAsBase64Var".
var rules = node.Rules{
	NoRetry: func(n *node.View) string {
		if fv, has := n.Config["fetchAsBase64Var"]; has && fv != nil {
			return "not allowed on an action with fetchAsBase64Var"
		}
		return ""
	},
}
