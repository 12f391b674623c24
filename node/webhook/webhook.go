// Package webhook is the webhook node: an inline HTTP request, no registration.
// Outbound HTTP is not part of this build yet, so it runs in mock mode only.
package webhook

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "webhook",
		Summary: "Calls an arbitrary HTTP endpoint specified inline (url, method, headers, body template).",
		Description: "bodyTemplate is a JSON document whose strings are templates, so user text can never break or " +
			"extend the JSON. With async: true the request is sent without waiting, and only a failure before it is " +
			"sent takes the failure edge. A webhook never retries unless it has a retry policy.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Retry:        true,
		Fields: []node.Field{
			{Name: "url", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: 8192, Description: "The URL, as a template."},
			{Name: "method", Kind: node.KindString, Enum: []string{"GET", "POST", "PUT", "PATCH", "DELETE"}, Default: "POST", Description: "The HTTP method."},
			node.HeadersField,
			{Name: "bodyTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "The JSON body, its strings templated."},
			node.TimeoutField,
			{Name: "async", Kind: node.KindBoolean, Default: false, Description: "Send without waiting for the answer."},
			node.OutputVarField,
		},
		Examples: node.Examples(`{"url": "https://hooks.example.com/orders", "method": "POST", "bodyTemplate": "{\"text\": \"{{userMessage}}\"}", "outputVar": "hookResult"}`),
		Build:    node.Offline,
	})
}
