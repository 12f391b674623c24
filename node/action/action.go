// Package action is the action node: it calls a registered Custom Action (a
// plain REST endpoint). Outbound HTTP is not part of this build yet, so it
// runs in mock mode only.
package action

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "action",
		Summary: "Invokes a registered Custom Action (a REST endpoint) with a templated body.",
		Description: "bodyTemplate (or argsTemplate) is a JSON document whose strings are templates. outputVar holds " +
			"{status, headers, data}, data being the parsed JSON body or the text. fetchAsBase64Var stores a binary " +
			"response as base64. Without a retry policy a failed call is tried up to 3 times with no wait.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Retry:        true,
		Fields: []node.Field{
			{Name: "customActionId", Kind: node.KindInteger, Required: true, Min: node.Float(1), Description: "The Custom Action's id."},
			{Name: "bodyTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "The JSON body, its strings templated."},
			{Name: "argsTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "Same as bodyTemplate, with the tool node's name."},
			node.OutputVarField,
			node.TimeoutField,
			{Name: "fetchAsBase64Var", Kind: node.KindString, Format: node.FormatVariable, MaxLength: 128, Description: "Store a binary response in this variable as base64."},
		},
		Examples: node.Examples(`{"customActionId": 42, "outputVar": "orderLookup", "bodyTemplate": "{\"customerRef\": \"{{clientExternalId}}\"}"}`),
		Build:    node.Offline,
	})
}
