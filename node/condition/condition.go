// Package condition is the condition node: a two-way branch on a boolean
// expression, routed by edges labeled exactly 'true' and 'false'.
package condition

import (
	"context"
	"strconv"

	"github.com/wetel/wetel/expression"
	"github.com/wetel/wetel/node"
)

func init() {
	node.Register(&node.Spec{
		Type:    "condition",
		Summary: "Branches on a boolean expression evaluated against the run's context.",
		Description: "The two outgoing edges must be labeled exactly the lowercase strings 'true' and 'false'. " +
			"A missing, capitalized or misspelled label fails the run with a clear error when the condition is " +
			"evaluated, rather than doing nothing silently. A variable the expression reads that is not set is an " +
			"error, not a silent false: write `x ?? 0` to give it a fallback.",
		Routing: node.RouteBool,
		Fields: []node.Field{
			{Name: "expression", Kind: node.KindString, Format: node.FormatExpression, Required: true, MaxLength: expression.MaxSourceBytes,
				Description: "A boolean expression, for example `userAge > 18` or `_lastNodeErrorCode == \"TIMEOUT\"`."},
		},
		Examples: node.Examples(`{"expression": "userAge > 18"}`),
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg struct {
		Expression string `json:"expression"`
	}
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	prog, err := expression.Compile(cfg.Expression)
	if err != nil {
		return nil, err
	}
	return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
		ok, err := prog.EvalBool(x.Vars)
		if err != nil {
			return node.Outcome{}, err
		}
		return node.Outcome{Route: strconv.FormatBool(ok)}, nil
	}), nil
}
