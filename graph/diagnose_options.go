package graph

import (
	"strings"

	"github.com/wetel/wetel/node"
)

// MaxExpirySeconds is the ceiling await_reply and approval waits are clamped to.
const MaxExpirySeconds = 7 * 24 * 60 * 60

// diagnoseOptions reports config a node will ignore or clamp.
func diagnoseOptions(n *Node, spec *node.Spec, cfg map[string]any) []Problem {
	var out []Problem
	ignored := func(field, why string) {
		out = append(out, nodeProblem(DiagIgnoredOption, n.ID, field, "Node %q: %s is ignored: %s.", n.ID, field, why))
	}
	has := func(k string) bool { _, ok := cfg[k]; return ok }
	switch n.Type {
	case "await_reply":
		if mode, _ := cfg["matchMode"].(string); mode != "options" {
			for _, f := range []string{"optionsFrom", "optionIdField", "optionLabelField"} {
				if has(f) {
					ignored(f, "the node is in free_text mode, where every reply is the answer")
				}
			}
		}
		// Seed 000: "the node itself never runs twice in one run regardless of what maxVisits says".
		if mv, explicit := maxVisitsOf(cfg); explicit && mv > 1 {
			ignored(node.FieldMaxVisits, "the question always ends the turn, so the node never runs twice in one run")
		}
	case "end_session":
		if rc, _ := cfg["requireConfirmation"].(bool); !rc && has("confirmationTemplate") {
			ignored("confirmationTemplate", "requireConfirmation is not true")
		}
	case "webhook":
		if async, _ := cfg["async"].(bool); async && has("outputVar") {
			ignored("outputVar", "an async webhook does not wait for the answer, so nothing is written")
		}
	case "llm":
		if stream, _ := cfg["stream"].(bool); stream && has("outputSchema") {
			ignored("stream", "a structured reply (outputSchema) is parsed whole, never streamed")
		}
	case "set_variable":
		out = append(out, diagnoseAssignments(n, cfg)...)
	}
	if secs, ok := cfg["expiresAfterSeconds"].(float64); ok && secs > MaxExpirySeconds {
		out = append(out, nodeProblem(DiagIgnoredOption, n.ID, "expiresAfterSeconds",
			"Node %q: expiresAfterSeconds %s is clamped to the ceiling of 7 days (604800 seconds).", n.ID, jsonText(secs)))
	}
	if retry, ok := cfg[node.FieldRetry].(map[string]any); ok && spec.Retry {
		if attempts, _ := retry["maxAttempts"].(float64); attempts == 1 {
			var extra []string
			for _, f := range []string{"backoff", "delayMs", "maxDelayMs", "jitter", "on", "idempotent"} {
				if _, ok := retry[f]; ok {
					extra = append(extra, f)
				}
			}
			if len(extra) > 0 {
				ignored("retry."+strings.Join(extra, ", retry."), "maxAttempts is 1, which turns retrying off")
			}
		}
	}
	return out
}

func diagnoseAssignments(n *Node, cfg map[string]any) []Problem {
	var out []Problem
	list, _ := cfg["assignments"].([]any)
	for i, a := range list {
		m, ok := a.(map[string]any)
		if !ok {
			continue
		}
		_, hasValue := m["value"]
		_, hasDefault := m["default"]
		if hasValue && hasDefault {
			out = append(out, nodeProblem(DiagIgnoredOption, n.ID, "assignments", "Node %q: assignments[%d].default is ignored: a constant value is never missing.", n.ID, i))
		}
	}
	return out
}
