// Package setvariable is the set_variable node: it writes context variables
// without calling a model (copy, default, coerce, expression, small JSON object).
package setvariable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wetel/wetel/expression"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

// MaxAssignments bounds one node's assignments.
const MaxAssignments = 50

func init() {
	node.Register(&node.Spec{
		Type:    "set_variable",
		Summary: "Writes one or more context variables without calling a language model.",
		Description: "Each assignment writes `var` from exactly one source: `value` (a JSON value whose strings are " +
			"Handlebars templates; a string that is exactly one {{path}} keeps the value's own JSON type), `from` (a dot " +
			"path to copy) or `expression`. `default` is used when `from` or a variable the expression reads is not set. " +
			"`coerce` turns the result into a string, number, boolean or parsed JSON. Assignments run in order, so a " +
			"later one reads an earlier one. If any assignment fails, the node fails and writes nothing.",
		Routing:      node.RouteAll,
		FailureEdges: true,
		Fields: []node.Field{
			{Name: "assignments", Kind: node.KindArray, Required: true, MinItems: 1, MaxItems: MaxAssignments,
				Description: "The variables to write, in order.",
				Items: &node.Field{Kind: node.KindObject, Fields: []node.Field{
					{Name: "var", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable to write."},
					{Name: "value", Kind: node.KindAny, Description: "A constant or a small JSON object of templates."},
					{Name: "from", Kind: node.KindString, Format: node.FormatPath, MaxLength: 256, Description: "A dot path to copy from."},
					{Name: "expression", Kind: node.KindString, Format: node.FormatExpression, MaxLength: expression.MaxSourceBytes, Description: "An expression to compute."},
					{Name: "coerce", Kind: node.KindString, Enum: []string{"string", "number", "boolean", "json"}, Description: "Convert the result."},
					{Name: "default", Kind: node.KindAny, Description: "Used when the source is not set."},
				}}},
		},
		Examples: node.Examples(
			`{"assignments": [{"var": "qty", "from": "extracted.quantity", "coerce": "number", "default": 1}]}`,
			`{"assignments": [{"var": "total", "expression": "qty * unitPrice"}, {"var": "summary", "value": {"qty": "{{qty}}", "note": "Order of {{qty}}"}}]}`),
		Check: check,
		Rules: rules,
		Runs:  node.OnServer | node.Offline,
		Build: build,
	})
}

func check(cfg map[string]any) []node.FieldError {
	var errs []node.FieldError
	list, _ := cfg["assignments"].([]any)
	for i, a := range list {
		m, _ := a.(map[string]any)
		n := 0
		for _, k := range []string{"value", "from", "expression"} {
			if _, ok := m[k]; ok {
				n++
			}
		}
		if n != 1 {
			errs = append(errs, node.FieldError{Path: fmt.Sprintf("assignments[%d]", i), Rule: "needs exactly one of value, from or expression"})
		}
		if v, ok := m["value"]; ok {
			b, _ := json.Marshal(v)
			if _, err := tmpl.ParseJSON(string(b)); err != nil {
				errs = append(errs, node.FieldError{Path: fmt.Sprintf("assignments[%d].value", i), Rule: "is not a valid template: " + err.Error()})
			}
		}
	}
	return errs
}

type assignment struct {
	name       string
	value      *tmpl.JSONTemplate
	from       string
	expr       *expression.Program
	coerce     string
	def        any
	hasDefault bool
}

func build(b node.BuildInput) (node.Executor, error) {
	var cfg struct {
		Assignments []struct {
			Var        string          `json:"var"`
			Value      json.RawMessage `json:"value"`
			From       string          `json:"from"`
			Expression string          `json:"expression"`
			Coerce     string          `json:"coerce"`
			Default    json.RawMessage `json:"default"`
		} `json:"assignments"`
	}
	if err := b.Decode(&cfg); err != nil {
		return nil, err
	}
	list := make([]assignment, len(cfg.Assignments))
	for i, a := range cfg.Assignments {
		as := assignment{name: a.Var, from: a.From, coerce: a.Coerce}
		var err error
		switch {
		case a.Value != nil:
			as.value, err = tmpl.ParseJSON(string(a.Value))
		case a.Expression != "":
			as.expr, err = expression.Compile(a.Expression)
		}
		if err == nil && a.Default != nil {
			as.hasDefault = true
			err = json.Unmarshal(a.Default, &as.def)
		}
		if err != nil {
			return nil, fmt.Errorf("assignments[%d]: %w", i, err)
		}
		list[i] = as
	}
	return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
		return node.Outcome{}, assign(list, x.Vars)
	}), nil
}

// prior remembers what a variable held before this node wrote it, so a
// failing assignment leaves the context as it found it (seed: "The failed
// node's own output variable is not written").
type prior struct {
	name string
	val  any
	had  bool
}

func assign(list []assignment, vars map[string]any) error {
	var buf [8]prior // keeps the common case off the heap
	undo := buf[:0]
	for i := range list {
		a := &list[i]
		v, err := a.compute(vars)
		if err == nil {
			v, err = coerce(a.coerce, v)
		}
		if err != nil {
			for j := len(undo) - 1; j >= 0; j-- {
				if undo[j].had {
					vars[undo[j].name] = undo[j].val
				} else {
					delete(vars, undo[j].name)
				}
			}
			return fmt.Errorf("assignment %d (%s): %w", i+1, a.name, err)
		}
		old, had := vars[a.name]
		undo = append(undo, prior{a.name, old, had})
		vars[a.name] = v
	}
	return nil
}

func (a *assignment) compute(vars map[string]any) (any, error) {
	switch {
	case a.value != nil:
		return a.value.Render(vars)
	case a.expr != nil:
		v, err := a.expr.Eval(vars)
		if err != nil && a.hasDefault && isMissing(err) {
			return a.def, nil
		}
		return v, err
	default:
		v, ok := node.Lookup(vars, a.from)
		if ok && v != nil {
			return v, nil
		}
		if a.hasDefault {
			return a.def, nil
		}
		return nil, &failure.Error{Code: failure.InvalidData, Message: fmt.Sprintf("variable %q is not set and the assignment has no default", a.from)}
	}
}

// isMissing is kept apart so the errors.As target is allocated only when an
// expression fails, not on every assignment.
func isMissing(err error) bool {
	var missing *expression.MissingVariableError
	return errors.As(err, &missing)
}
