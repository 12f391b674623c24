// Package response is the response node: the one way a workflow talks back to
// the user directly.
package response

import (
	"context"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

// MoodField is the optional mood hint shared by nodes that speak.
var MoodField = node.Field{Name: "mood", Kind: node.KindString, MaxLength: 64,
	Description: "A mood hint passed through with the message, for example `helpful` or `apologetic`."}

func init() {
	node.Register(&node.Spec{
		Type:    "response",
		Summary: "Sends a text reply to the user.",
		Description: "`messageTemplate` is Handlebars ({{path}}, {{#if}}, {{#each}} with @index, {{else}}). Chat text is " +
			"not HTML-escaped. Every outgoing edge is followed, whatever its label.",
		Routing: node.RouteAll,
		Fields: []node.Field{
			{Name: "messageTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes,
				Description: "The reply, as a Handlebars template."},
			MoodField,
		},
		Examples: node.Examples(`{"messageTemplate": "Here's your order status: {{order_result}}", "mood": "helpful"}`),
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg struct {
		MessageTemplate string `json:"messageTemplate"`
		Mood            string `json:"mood"`
	}
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	t, err := tmpl.Parse(cfg.MessageTemplate)
	if err != nil {
		return nil, err
	}
	return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
		text, err := t.Render(x.Vars)
		if err != nil {
			return node.Outcome{}, err
		}
		x.Say(text, cfg.Mood)
		return node.Outcome{}, nil
	}), nil
}
