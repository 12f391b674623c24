package expression

import "slices"

// Go randomises map iteration, so expr's keys, values and toPairs would make
// a run's result depend on luck. These versions order entries by key for
// the JSON objects a context holds, and defer to expr for anything else.

var (
	exprKeys    = original("keys")
	exprValues  = original("values")
	exprToPairs = original("toPairs")
)

func sortedKeys(args ...any) (any, error) {
	m, ok := object(args)
	if !ok {
		return exprKeys(args...)
	}
	keys := sortedNames(m)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k
	}
	return out, nil
}

func sortedValues(args ...any) (any, error) {
	m, ok := object(args)
	if !ok {
		return exprValues(args...)
	}
	keys := sortedNames(m)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out, nil
}

func sortedPairs(args ...any) (any, error) {
	m, ok := object(args)
	if !ok {
		return exprToPairs(args...)
	}
	keys := sortedNames(m)
	// The same element type as expr's own toPairs, so fromPairs and
	// indexing treat both alike.
	out := make([][2]any, len(keys))
	for i, k := range keys {
		out[i] = [2]any{k, m[k]}
	}
	return out, nil
}

func object(args []any) (map[string]any, bool) {
	if len(args) != 1 {
		return nil, false
	}
	m, ok := args[0].(map[string]any)
	return m, ok
}

func sortedNames(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
