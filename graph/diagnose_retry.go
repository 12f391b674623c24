package graph

import (
	"strings"

	"github.com/wetel/wetel/node"
)

// diagnoseRetryFields reports retry fields that maxAttempts 1 makes moot.
func diagnoseRetryFields(n *Node, spec *node.Spec, cfg map[string]any) []Problem {
	var out []Problem
	if retry, ok := cfg[node.FieldRetry].(map[string]any); ok && spec.Retry {
		if attempts, _ := retry["maxAttempts"].(float64); attempts == 1 {
			var extra []string
			for _, f := range []string{"backoff", "delayMs", "maxDelayMs", "jitter", "on", "idempotent"} {
				if _, ok := retry[f]; ok {
					extra = append(extra, f)
				}
			}
			if len(extra) > 0 {
				f := "retry." + strings.Join(extra, ", retry.")
				out = append(out, nodeProblem(DiagIgnoredOption, n.ID, f, "Node %q: %s is ignored: %s.", n.ID, f, "maxAttempts is 1, which turns retrying off"))
			}
		}
	}
	return out
}

// diagnoseRetry: seed, "a POST that timed out or got a 5xx is not resent
// unless you mark it idempotent". The type's Idempotent rule knows the rest.
func (v *view) diagnoseRetry(i int) []Problem {
	n, spec, cfg := &v.g.Nodes[i], v.specs[i], v.cfgs[i]
	retry, ok := cfg[node.FieldRetry].(map[string]any)
	if !spec.Retry || !ok {
		return nil
	}
	if idem, _ := retry["idempotent"].(bool); idem || (spec.Rules.Idempotent != nil && spec.Rules.Idempotent(v.nodeView(i))) {
		return nil
	}
	var unsafe []string
	if on, ok := retry["on"].([]any); ok {
		for _, c := range on {
			if c == "TIMEOUT" || c == "UPSTREAM_ERROR" {
				unsafe = append(unsafe, c.(string))
			}
		}
	}
	if len(unsafe) == 0 {
		return nil
	}
	return []Problem{nodeProblem(DiagRetryNotIdempotent, n.ID, "retry.on",
		"Node %q lists %s in retry.on, but a request that timed out or got a 5xx may have reached the service, so it is resent only when the node is idempotent (retry.idempotent: true, a GET, or an Idempotency-Key header).",
		n.ID, strings.Join(unsafe, " and "))}
}
