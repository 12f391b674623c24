// Package router is the router node: a multi-way branch on a variable's value,
// matched against the labels of its outgoing edges.
package router

import (
	"context"

	"github.com/wetel/wetel/node"
)

func init() {
	node.Register(&node.Spec{
		Type:    "router",
		Summary: "A multi-way branch driven by a variable's value rather than an expression.",
		Description: "Each outgoing edge's label is matched, by plain string equality, against the current value of " +
			"`variable` (numbers in their shortest form, booleans as true/false). Every matching edge is followed, in " +
			"document order. When none matches, the run goes to `defaultTarget`; without one, the run fails with a " +
			"routing error that names the value. 'success' and 'failure' are ordinary route values here.",
		Routing: node.RouteValue,
		Fields: []node.Field{
			{Name: "variable", Kind: node.KindString, Format: node.FormatPath, Required: true, MaxLength: 256,
				Description: "Dot path of the context variable to inspect, for example `intent`."},
			{Name: "defaultTarget", Kind: node.KindString, Format: node.FormatNodeID, MaxLength: 256,
				Description: "Id of the node to go to when no edge label matches."},
		},
		Examples: node.Examples(`{"variable": "intent", "defaultTarget": "respond_general"}`),
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg struct {
		Variable string `json:"variable"`
	}
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
		v, ok := node.Lookup(x.Vars, cfg.Variable)
		if !ok {
			return node.Outcome{NoValue: true}, nil
		}
		s, ok := node.Scalar(v)
		return node.Outcome{Route: s, NoValue: !ok}, nil
	}), nil
}
