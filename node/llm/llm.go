// Package llm is the llm node: it calls the agent's language model. The model
// clients are not part of this build yet, so it runs in mock mode only.
package llm

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "llm",
		Summary: "Calls the agent's language model with a templated prompt and stores the reply in outputVar.",
		Description: "Use it for anything that needs language understanding or generation: answering, classifying " +
			"intent, extracting a value from free text. outputVar holds the reply text, or the parsed object when " +
			"outputSchema is set (a reply that does not match is INVALID_DATA).",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Fields: []node.Field{
			{Name: "promptTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes, Description: "The prompt, as a Handlebars template."},
			{Name: "outputVar", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable the reply is stored in."},
			{Name: "systemPrompt", Kind: node.KindString, Format: node.FormatTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "Overrides the agent's system prompt."},
			{Name: "modelOverride", Kind: node.KindString, MaxLength: 256, Description: "A model from the workspace's catalog to use instead of the agent's default."},
			{Name: "knowledgeBaseId", Kind: node.KindInteger, Min: node.Float(1), Description: "A knowledge base to retrieve passages from."},
			{Name: "stream", Kind: node.KindBoolean, Default: false, Description: "Stream the reply to the user as it is generated."},
			{Name: "outputSchema", Kind: node.KindObject, Values: &node.Field{Kind: node.KindAny}, Description: "A JSON Schema the reply must match; outputVar then holds the parsed object."},
			{Name: "temperature", Kind: node.KindNumber, Min: node.Float(0), Max: node.Float(2), Description: "Sampling temperature, 0 to 2."},
			{Name: "maxTokens", Kind: node.KindInteger, Min: node.Float(1), Max: node.Float(128000), Description: "Cap on the reply's length in tokens."},
		},
		Examples: node.Examples(`{"promptTemplate": "Classify this message: \"{{userMessage}}\". Respond with ONLY one word: order_status, or general.", "outputVar": "intent"}`),
		Rules:    rules,
		// Runs is empty: no model client is part of this build, so mock mode only.
	})
}
