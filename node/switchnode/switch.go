// Package switchnode is the switch node: up to 10 cases checked in order; the
// first true case routes along the edge labeled with its label, else 'default'.
// (The package is not called switch, which is a Go keyword.)
package switchnode

import (
	"context"
	"fmt"

	"github.com/wetel/wetel/expression"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// MaxCases is the seed's bound: "a multi-way branch on up to 10 tests".
const MaxCases = 10

func init() {
	node.Register(&node.Spec{
		Type:    "switch",
		Summary: "A multi-way branch on up to 10 tests, checked in order; the first true case wins, else 'default'.",
		Description: "One outgoing edge per case, labeled exactly with the case's label, plus exactly one edge labeled " +
			"'default'. Only the edge of the case that won (or default) is followed. Publishing refuses a switch with a " +
			"missing, repeated or extra label. No model call.",
		Routing: node.RouteCase,
		Fields: []node.Field{
			{Name: "cases", Kind: node.KindArray, Required: true, MinItems: 1, MaxItems: MaxCases,
				Description: "The tests, in the order they are checked.",
				Items: &node.Field{Kind: node.KindObject, Fields: []node.Field{
					{Name: "label", Kind: node.KindString, Required: true, MinLength: 1, MaxLength: 128, Description: "The edge label this case routes along."},
					{Name: "expression", Kind: node.KindString, Format: node.FormatExpression, Required: true, MaxLength: expression.MaxSourceBytes, Description: "A boolean expression."},
				}}},
		},
		Examples: node.Examples(`{"cases": [{"label": "large", "expression": "amount > 1000"}, {"label": "gold", "expression": "tier == \"gold\""}]}`),
		Check:    check,
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

func check(cfg map[string]any) []node.FieldError {
	var errs []node.FieldError
	seen := map[string]bool{}
	list, _ := cfg["cases"].([]any)
	for i, c := range list {
		m, _ := c.(map[string]any)
		label, _ := m["label"].(string)
		path := fmt.Sprintf("cases[%d].label", i)
		switch {
		case label == vocab.LabelDefault || label == vocab.LabelLoopExhausted:
			errs = append(errs, node.FieldError{Path: path, Rule: fmt.Sprintf("%q is reserved for the switch's own edges", label)})
		case seen[label]:
			errs = append(errs, node.FieldError{Path: path, Rule: fmt.Sprintf("repeats the label %q; each case needs its own", label)})
		}
		seen[label] = true
	}
	return errs
}

type switchCase struct {
	label string
	prog  *expression.Program
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg struct {
		Cases []struct {
			Label      string `json:"label"`
			Expression string `json:"expression"`
		} `json:"cases"`
	}
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	cases := make([]switchCase, len(cfg.Cases))
	for i, c := range cfg.Cases {
		prog, err := expression.Compile(c.Expression)
		if err != nil {
			return nil, fmt.Errorf("cases[%d]: %w", i, err)
		}
		cases[i] = switchCase{label: c.Label, prog: prog}
	}
	return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
		for _, c := range cases {
			ok, err := c.prog.EvalBool(x.Vars)
			if err != nil {
				return node.Outcome{}, fmt.Errorf("case %q: %w", c.label, err)
			}
			if ok {
				return node.Outcome{Route: c.label}, nil
			}
		}
		return node.Outcome{Route: "default"}, nil
	}), nil
}
