// Package tool is the tool node: it calls a tool of a registered MCP
// connector. MCP clients are not part of this build yet, so it runs in mock
// mode only.
package tool

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "tool",
		Summary: "Invokes a tool exposed by a registered MCP connector with templated arguments.",
		Description: "argsTemplate is a JSON document whose strings are templates. outputVar holds the tool result's " +
			"structured content, else its text. Without a retry policy a connection failure is retried up to 3 attempts.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Retry:        true,
		Fields: []node.Field{
			{Name: "connectorId", Kind: node.KindInteger, Required: true, Min: node.Float(1), Description: "The MCP connector's id."},
			{Name: "toolName", Kind: node.KindString, Required: true, MinLength: 1, MaxLength: 256, Description: "The tool to call."},
			{Name: "argsTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "The arguments, a JSON object whose strings are templates."},
			node.OutputVarField,
			node.TimeoutField,
		},
		Examples: node.Examples(`{"toolName": "get_order_status", "connectorId": 12, "outputVar": "order_result", "argsTemplate": "{\"orderQuery\": \"{{userMessage}}\"}"}`),
		Build:    node.Offline,
	})
}
