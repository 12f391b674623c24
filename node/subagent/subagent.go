// Package subagent is the sub_agent node: it dispatches to other agents
// concurrently, each target as a child session of its own, and aggregates
// what comes back. The child sessions come from the Dispatcher capability,
// which the server provides; offline the node runs in mock mode only.
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
		Description: "Each target runs concurrently as its own child session of its agent (parentSessionId names the " +
			"dispatching session), with its own run and budget; messageTemplate (default {{userMessage}}) is its one " +
			"message. resultVar holds [{agentId, status \"ok\"|\"error\"|\"timeout\", messages, output, error}] in " +
			"target order: messages are what the child said, output the variables its run wrote. A target that fails " +
			"or runs past timeoutMs is reported there and the node still takes success; the child is interrupted " +
			"before its next node. Only a configuration error takes the failure edge: no targets, more than 10, an " +
			"agent of another workspace, or dispatch nested deeper than 3. await_reply is refused inside a child, " +
			"which no person watches. The parent's interrupt and run deadline end every child's wait.",
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
		// Offline has no agents to dispatch to: mock mode there.
		Runs:  node.OnServer,
		Build: build,
	})
}
