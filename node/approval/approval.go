// Package approval is the approval node: it pauses the run until a workspace
// owner approves or rejects it. Deciding approvals is not part of this build
// yet, so every run of the node fails, on the server and offline alike.
package approval

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "approval",
		Summary: "Pauses the run until a workspace owner approves or rejects it, then continues down approved, rejected or expired.",
		Description: "Nothing is held open while it waits. Unlike await_reply, expiry is acted on: a durable timer takes " +
			"the expired edge. Only an OWNER decides. saveAs receives {approved, note, decidedBy}.",
		Routing:  node.RouteOutcome,
		Outcomes: []string{"approved", "rejected", "expired"},
		Pauses:   true,
		Fields: []node.Field{
			{Name: "promptTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes, Description: "What the approver is asked, as a Handlebars template."},
			{Name: "expiresAfterSeconds", Kind: node.KindNumber, Default: 86400, Min: node.Float(1), Description: "How long the approval stays open; clamped to 7 days."},
			{Name: "saveAs", Kind: node.KindString, Format: node.FormatVariable, MaxLength: 128, Description: "The variable the decision lands in."},
		},
		Examples: node.Examples(`{"promptTemplate": "Refund {{amount}} to {{customer}}?", "saveAs": "refundDecision"}`),
		Rules:    rules,
		// Runs is empty: approvals are not part of this build, and the type has no mock mode.
	})
}
