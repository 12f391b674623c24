// Package approval is the approval node: it pauses the run until a workspace
// owner approves or rejects it (decideApproval), and the decision's run
// continues down approved or rejected. Decisions are made over the server's
// API, so the node runs on the server only.
package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
	"github.com/wetel/wetel/vocab"
)

func init() {
	node.Register(&node.Spec{
		Type:    "approval",
		Summary: "Pauses the run until a workspace owner approves or rejects it, then continues down approved, rejected or expired.",
		Description: "The run stops AWAITING_APPROVAL with promptTemplate rendered for the approver; nothing is held " +
			"open while it waits. pendingApprovals lists it, and decideApproval (an OWNER only) starts its continuation, " +
			"a new run whose resumedFromRunId names the paused one, down approved or rejected, with saveAs holding " +
			"{approved, note, decidedBy}. A message on the session meanwhile starts a fresh run, leaving the approval " +
			"pending. Each approval has one outcome: a second decision, or one after expiresAfterSeconds (default 24 " +
			"hours, clamped to 7 days), is refused with CONFLICT. The expired edge is for the durable timer that acts " +
			"on expiry, which is not part of this build yet: an expired approval's run stays AWAITING_APPROVAL.",
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
		Runs:     node.OnServer,
		Build:    build,
	})
}

// DefaultExpiry is how long an approval stays open when the node does not
// say; node.MaxWaitExpiry is the ceiling (PLATFORM §6).
const DefaultExpiry = 24 * time.Hour

type config struct {
	PromptTemplate      string   `json:"promptTemplate"`
	ExpiresAfterSeconds *float64 `json:"expiresAfterSeconds"`
	SaveAs              string   `json:"saveAs"`
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg config
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	prompt, err := tmpl.Parse(cfg.PromptTemplate)
	if err != nil {
		return nil, err
	}
	expiry := DefaultExpiry
	if s := cfg.ExpiresAfterSeconds; s != nil {
		expiry = min(time.Duration(*s*float64(time.Second)), node.MaxWaitExpiry)
	}
	return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
		text, err := prompt.Render(x.Vars)
		if err != nil {
			return node.Outcome{}, err
		}
		snap, size, err := node.Carried(x.Vars)
		if err != nil {
			return node.Outcome{}, fmt.Errorf("approval node %q: the context to carry across the pause is %d bytes: %w", x.NodeID, size, err)
		}
		state, err := json.Marshal(State{SaveAs: cfg.SaveAs, Prompt: text})
		if err != nil {
			return node.Outcome{}, err
		}
		now := time.Now()
		if x.Clock != nil {
			now = x.Clock.Now()
		}
		// Nothing is held open: the run stops AWAITING_APPROVAL and an
		// owner's decision starts its continuation.
		return node.Outcome{Pause: &node.Pause{ResumeOn: vocab.ResumeOnDecision, RunStatus: vocab.RunAwaitingApproval,
			State: state, ExpiresAt: now.Add(expiry), Snapshot: snap}}, nil
	}), nil
}

// State is what an approval wait stores: where the decision lands, and
// the prompt as the approver reads it, rendered when the run paused.
type State struct {
	SaveAs string `json:"saveAs,omitempty"`
	Prompt string `json:"prompt"`
}

// Kind is the kind of the waits an approval node leaves.
const Kind = "approval"

// DecodeState reads a stored approval state.
func DecodeState(b []byte) (State, error) {
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		return State{}, fmt.Errorf("approval wait state: %w", err)
	}
	return st, nil
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
