// Package awaitreply is the await_reply node: it asks the user a question,
// ends the turn, and continues from its answered/unanswered edge on the next
// message. Pausing needs the session store, which is not part of this build
// yet, so the node refuses to run here rather than pretend.
package awaitreply

import (
	"context"
	"errors"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/response"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "await_reply",
		Summary: "Asks the user a question, ends the turn, and continues from its successor when the next message arrives.",
		Description: "Routing is by edge label: 'answered' (required on every await_reply node) and 'unanswered' " +
			"(required, and only reachable, when matchMode is 'options'). In options mode the list is built from the " +
			"array at optionsFrom (at most 20 options, labels cut to 80 characters) and exposed to promptTemplate as " +
			"awaitReplyOptions for this one render.",
		Routing:  node.RouteOutcome,
		Outcomes: []string{"answered", "unanswered"},
		Pauses:   true,
		Fields: []node.Field{
			{Name: "promptTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes, Description: "The question, as a Handlebars template."},
			{Name: "saveAs", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable the answer lands in when the run resumes."},
			{Name: "matchMode", Kind: node.KindString, Enum: []string{"free_text", "options"}, Default: "free_text", Description: "free_text accepts any reply; options matches it against a list."},
			{Name: "optionsFrom", Kind: node.KindString, Format: node.FormatPath, MaxLength: 256, Description: "Options mode: dot path of the array to build the list from."},
			{Name: "optionIdField", Kind: node.KindString, Default: "id", MinLength: 1, MaxLength: 128, Description: "Field of each element holding its identifier."},
			{Name: "optionLabelField", Kind: node.KindString, Default: "label", MinLength: 1, MaxLength: 128, Description: "Field of each element holding its display label."},
			{Name: "expiresAfterSeconds", Kind: node.KindNumber, Default: 86400, Min: node.Float(1), Description: "How long the wait stays resumable; clamped to 7 days."},
			response.MoodField,
		},
		Examples: node.Examples(`{"promptTemplate": "Which one?\n{{#each awaitReplyOptions}}{{slot}}. {{label}}\n{{/each}}", "saveAs": "chosenOrder", "matchMode": "options", "optionsFrom": "orderLookup.data", "optionIdField": "order_id", "optionLabelField": "description"}`),
		Check:    check,
		Build:    build,
	})
}

func check(cfg map[string]any) []node.FieldError {
	if mode, _ := cfg["matchMode"].(string); mode == "options" {
		if from, _ := cfg["optionsFrom"].(string); from == "" {
			return []node.FieldError{{Path: "optionsFrom", Rule: "is required when matchMode is 'options': it names the array the options are built from"}}
		}
	}
	return nil
}

func build(node.BuildInput) (node.Executor, error) {
	err := node.Fatal(errors.New("await_reply needs a session store to pause the run and resume it on the next message, which this mode does not have"))
	return node.ExecutorFunc(func(context.Context, *node.Exec) (node.Outcome, error) { return node.Outcome{}, err }), nil
}
