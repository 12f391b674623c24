// Package start is the start node: the entry point of every run.
package start

import (
	"context"

	"github.com/wetel/wetel/node"
)

func init() {
	node.Register(&node.Spec{
		Type:    "start",
		Summary: "The entry point. Every workflow needs exactly one. It takes no configuration.",
		Description: "Every run that is not a resumed await_reply begins here. Its outgoing edges are followed " +
			"unconditionally, whatever their label.",
		Routing:  node.RouteAll,
		Entry:    true,
		Examples: node.Examples(`{}`),
		Runs:     node.OnServer | node.Offline,
		Build: func(node.BuildInput) (node.Executor, error) {
			return node.ExecutorFunc(func(context.Context, *node.Exec) (node.Outcome, error) { return node.Outcome{}, nil }), nil
		},
	})
}
