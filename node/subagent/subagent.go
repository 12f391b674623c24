// Package subagent is the sub_agent node: it dispatches to other agents
// concurrently. It needs the server's sessions, so it runs in mock mode only here.
package subagent

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

// MaxTargets is the seed's bound on one dispatch.
const MaxTargets = 10

func init() {
	node.Register(&node.Spec{
		Type:    "sub_agent",
		Summary: "Dispatches to one or more other agents concurrently and aggregates what comes back into an array.",
		Description: "Each target runs as its own child session with its own run budget. resultVar holds " +
			"[{agentId, status \"ok\"|\"error\"|\"timeout\", messages, output, error}]; a target that fails is reported " +
			"there and the node still takes success. Only a configuration error takes the failure edge.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "resultVar",
		FailureEdges: true,
		Fields: []node.Field{
			{Name: "targets", Kind: node.KindArray, Required: true, MinItems: 1, MaxItems: MaxTargets, Description: "The agents to dispatch to (1 to 10).",
				Items: &node.Field{Kind: node.KindObject, Fields: []node.Field{
					{Name: "agentId", Kind: node.KindInteger, Required: true, Min: node.Float(1), Description: "The agent's id."},
					{Name: "messageTemplate", Kind: node.KindString, Format: node.FormatTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "The message sent to it."},
				}}},
			{Name: "resultVar", Kind: node.KindString, Format: node.FormatVariable, MaxLength: 128, Description: "The variable the result array lands in."},
			{Name: "timeoutMs", Kind: node.KindInteger, Default: 60000, Min: node.Float(1), Max: node.Float(300000), Description: "Time per target in ms (default 60000, ceiling 300000)."},
		},
		Examples: node.Examples(`{"targets": [{"agentId": 7, "messageTemplate": "{{userMessage}}"}, {"agentId": 9, "messageTemplate": "{{userMessage}}"}], "resultVar": "specialists"}`),
		// Runs is empty: child sessions are not part of this build, so mock mode only.
	})
}
