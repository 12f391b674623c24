// Package approval is the approval node: it pauses the run until a workspace
// owner approves or rejects it. Deciding approvals is not part of this build
// yet, so every run of the node fails, on the server and offline alike.
package approval

import (
	"context"
	"encoding/json"
	"fmt"

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
		Resume:   resume,
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

// State is what an approval wait stores: where the decision lands.
type State struct {
	SaveAs string `json:"saveAs,omitempty"`
}

// resume continues an approval with its decision, or its expiry, which
// unlike await_reply's is acted on (PLATFORM §6: "a durable timer takes the
// expired edge"). saveAs receives {approved, note, decidedBy}.
func resume(_ context.Context, in node.ResumeInput) (node.Resumed, error) {
	var st State
	if len(in.State) > 0 {
		if err := json.Unmarshal(in.State, &st); err != nil {
			return node.Resumed{}, fmt.Errorf("approval wait state: %w", err)
		}
	}
	var out node.Resumed
	switch in.Event {
	case node.ResumeDecision:
		out.Label = "rejected"
		if in.Decision.Approved {
			out.Label = "approved"
		}
	case node.ResumeExpiry:
		out.Label = "expired"
	default:
		return node.Resumed{}, fmt.Errorf("approval node %q resumes on a decision or its expiry, not a reply", in.NodeID)
	}
	if st.SaveAs != "" {
		d := in.Decision
		if in.Event == node.ResumeExpiry {
			d = node.Decision{}
		}
		out.Vars = map[string]any{st.SaveAs: map[string]any{"approved": d.Approved, "note": d.Note, "decidedBy": d.DecidedBy}}
	}
	return out, nil
}
