package webhook

import (
	"strings"

	"github.com/wetel/wetel/node"
)

// rules: an async webhook does not wait for the answer, so it has nothing
// to retry on and writes no outputVar.
var rules = node.Rules{
	NoRetry: func(n *node.View) string {
		if n.Bool("async") {
			return "not allowed on a webhook with async: true, which does not wait for an answer to retry on"
		}
		return ""
	},
	// Seed: the request is idempotent with "a GET, or an Idempotency-Key header".
	Idempotent: func(n *node.View) bool {
		if strings.EqualFold(n.String("method"), "GET") {
			return true
		}
		h, _ := n.Config["headers"].(map[string]any)
		for k := range h {
			if strings.EqualFold(k, "Idempotency-Key") {
				return true
			}
		}
		return false
	},
	Diagnose: func(n *node.View) []node.Problem {
		if n.Bool("async") && n.Has("outputVar") {
			return []node.Problem{n.Ignored("outputVar", "an async webhook does not wait for the answer, so nothing is written")}
		}
		return nil
	},
}
