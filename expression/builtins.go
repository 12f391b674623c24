package expression

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/vm/runtime"
)

// meteredFunctions are the builtins whose output can outgrow their input,
// keyed by builtin name. Compile routes calls to them through these
// wrappers, which delegate to expr's implementation so behaviour stays the
// same apart from the size limit (and the key order of keys, values and
// toPairs).
var meteredFunctions = map[string]*builtin.Function{
	"repeat":     metered("repeat", nil, repeatSize, shallowSize),
	"replace":    metered("replace", nil, replaceSize, shallowSize),
	"join":       metered("join", nil, joinSize, shallowSize),
	"toJSON":     metered("toJSON", nil, printedSize, shallowSize),
	"string":     metered("string", nil, printedSize, shallowSize),
	"upper":      metered("upper", nil, nil, shallowSize),
	"lower":      metered("lower", nil, nil, shallowSize),
	"split":      metered("split", nil, nil, shallowSize),
	"splitAfter": metered("splitAfter", nil, nil, shallowSize),
	"toBase64":   metered("toBase64", nil, nil, shallowSize),
	"fromBase64": metered("fromBase64", nil, nil, shallowSize),
	"fromJSON":   metered("fromJSON", nil, nil, decodedSize),
	"fromPairs":  metered("fromPairs", nil, nil, shallowSize),
	"uniq":       metered("uniq", nil, nil, shallowSize),
	"keys":       metered("keys", sortedKeys, nil, shallowSize),
	"values":     metered("values", sortedValues, nil, shallowSize),
	"toPairs":    metered("toPairs", sortedPairs, nil, shallowSize),
}

// addFunction stands in for + inside expressions with closures or let,
// where repeated concatenation such as reduce(1..60, #acc + #acc, "x")
// would otherwise double a string at every step.
var addFunction = metered("concatenation", add, concatSize, stringSize)

// stepFunction wraps every closure body in expressions with closures,
// counting iterations: expr's own budget only counts what loops allocate,
// not how often they run. It returns the body's value untouched.
var stepFunction = &builtin.Function{
	Name: "loop",
	Func: func(args ...any) (any, error) {
		m, _ := args[0].(*meter)
		if err := m.step(); err != nil {
			return nil, err
		}
		return args[1], nil
	},
}

func add(args ...any) (any, error) {
	return runtime.Add(args[0], args[1]), nil
}

// metered wraps impl (expr's implementation of name when nil) so that it
// refuses calls whose estimated output, from before, exceeds what the meter
// allows, and charges the meter with after's measure of the result. The
// meter arrives as a hidden first argument added by rewrite.
func metered(name string, impl func(...any) (any, error), before func([]any) int, after func(any) int) *builtin.Function {
	if impl == nil {
		impl = original(name)
	}
	return &builtin.Function{
		Name: name,
		Func: func(args ...any) (any, error) {
			m, _ := args[0].(*meter)
			args = args[1:]
			if before != nil {
				if err := m.check(name, before(args)); err != nil {
					return nil, err
				}
			}
			out, err := impl(args...)
			if err != nil {
				return nil, err
			}
			if err := m.charge(name, after(out)); err != nil {
				return nil, err
			}
			return out, nil
		},
	}
}

// original returns expr's implementation of a builtin as a plain function.
// It runs while the package initialises, so a builtin missing from a future
// expr release fails every test at once rather than calling the wrong one.
func original(name string) func(...any) (any, error) {
	id, ok := builtin.Index[name]
	if !ok {
		panic("expression: expr has no builtin " + name)
	}
	f := builtin.Builtins[id]
	switch {
	case f.Func != nil:
		return f.Func
	case f.Safe != nil:
		return func(args ...any) (any, error) {
			out, _, err := f.Safe(args...)
			return out, err
		}
	default:
		return func(args ...any) (any, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("invalid number of arguments for %s (expected 1, got %d)", name, len(args))
			}
			return f.Fast(args[0]), nil
		}
	}
}

// The size estimates below return 0 when the arguments are not of the
// expected types, leaving the error to expr's implementation.

func repeatSize(args []any) int {
	s, ok := args[0].(string)
	n, isInt := args[1].(int)
	if f, ok := args[1].(float64); ok {
		n, isInt = int(f), true
	}
	if !ok || !isInt || n <= 0 {
		return 0
	}
	if len(s) > MaxBuiltBytes/n {
		return MaxBuiltBytes + 1
	}
	return len(s) * n
}

func replaceSize(args []any) int {
	s, ok1 := args[0].(string)
	old, ok2 := args[1].(string)
	repl, ok3 := args[2].(string)
	if !ok1 || !ok2 || !ok3 {
		return 0
	}
	// strings.Count reports one more than the rune count for an empty old,
	// matching how many insertions ReplaceAll makes.
	n := strings.Count(s, old)
	if len(args) == 4 {
		limit, ok := args[3].(int)
		if f, isFloat := args[3].(float64); isFloat {
			limit, ok = int(f), true
		}
		if ok && limit >= 0 && limit < n {
			n = limit
		}
	}
	growth := len(repl) - len(old)
	if growth > 0 && n > (MaxBuiltBytes-len(s))/growth {
		return MaxBuiltBytes + 1
	}
	return len(s) + n*growth
}

func joinSize(args []any) int {
	glue := ""
	if len(args) == 2 {
		glue, _ = args[1].(string)
	}
	var total, n int
	switch list := args[0].(type) {
	case []any:
		for _, e := range list {
			s, _ := e.(string)
			total += len(s)
		}
		n = len(list)
	case []string:
		for _, s := range list {
			total += len(s)
		}
		n = len(list)
	}
	if n > 1 {
		total += len(glue) * (n - 1)
	}
	return total
}

func printedSize(args []any) int {
	return deepSize(args[0], MaxBuiltBytes+1)
}

func concatSize(args []any) int {
	a, _ := args[0].(string)
	b, _ := args[1].(string)
	return len(a) + len(b)
}

func stringSize(v any) int {
	s, _ := v.(string)
	return len(s)
}

func decodedSize(v any) int {
	return deepSize(v, MaxBuiltBytes+1)
}
