// Package endsession is the end_session node: it ends the conversation.
package endsession

import (
	"context"
	"errors"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "end_session",
		Summary: "Ends the conversation, and the run with it.",
		Description: "Nothing queued behind an end_session node is dispatched. With requireConfirmation the user is " +
			"asked `confirmationTemplate` first; runEvaluation (default off) triggers a post-session evaluation.",
		Routing: node.RouteAll,
		Fields: []node.Field{
			{Name: "requireConfirmation", Kind: node.KindBoolean, Default: false, Description: "Ask the user to confirm before ending."},
			{Name: "confirmationTemplate", Kind: node.KindString, Format: node.FormatTemplate, MaxLength: tmpl.MaxSourceBytes,
				Description: "The confirmation question, as a Handlebars template."},
			{Name: "runEvaluation", Kind: node.KindBoolean, Default: false, Description: "Trigger a post-session evaluation."},
		},
		Examples: node.Examples(`{}`, `{"requireConfirmation": true, "confirmationTemplate": "Shall I close this conversation?"}`),
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg struct {
		RequireConfirmation bool `json:"requireConfirmation"`
	}
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	if cfg.RequireConfirmation {
		// Asking for confirmation pauses the conversation, which needs the
		// session store; refusing is better than ending unconfirmed.
		err := errors.New("end_session with requireConfirmation needs a session store to wait for the answer, which this mode does not have")
		return node.ExecutorFunc(func(context.Context, *node.Exec) (node.Outcome, error) { return node.Outcome{}, err }), nil
	}
	return node.ExecutorFunc(func(context.Context, *node.Exec) (node.Outcome, error) {
		return node.Outcome{EndSession: true}, nil
	}), nil
}
