package expression

import (
	"fmt"
	"reflect"
)

// meter counts the bytes built and loop iterations run during one
// evaluation of an expression with closures or let. A nil meter, used by
// every other expression, only bounds each call on its own: without loops
// or reuse each call runs once, so the total stays within MaxNodes small
// multiples of MaxBuiltBytes.
type meter struct {
	used  int // bytes built
	steps int // closure bodies run
}

// check refuses a call expected to build n bytes before it allocates them.
func (m *meter) check(name string, n int) error {
	if n < 0 || n > MaxBuiltBytes {
		return fmt.Errorf("%s would build more than MaxBuiltBytes (%d bytes)", name, MaxBuiltBytes)
	}
	if m != nil && n > BuildBudget-m.used {
		return fmt.Errorf("%s would bring the bytes built past BuildBudget (%d bytes)", name, BuildBudget)
	}
	return nil
}

// step records one run of a closure body.
func (m *meter) step() error {
	if m == nil {
		return nil
	}
	m.steps++
	if m.steps > MaxIterations {
		return fmt.Errorf("loops ran more than MaxIterations (%d) times", MaxIterations)
	}
	return nil
}

// charge records n bytes just built, failing once the budget is spent.
func (m *meter) charge(name string, n int) error {
	if err := m.check(name, n); err != nil {
		return err
	}
	if m != nil {
		m.used += n
	}
	return nil
}

// Approximate per-entry costs, in bytes, of the Go values builtins return.
const (
	sliceEntryBytes = 16
	mapEntryBytes   = 48
	scalarBytes     = 24
)

// shallowSize estimates what a builtin allocated for v itself, not counting
// strings or values it merely references from its input.
func shallowSize(v any) int {
	switch v := v.(type) {
	case string:
		return len(v)
	case []any:
		return sliceEntryBytes * len(v)
	case []string:
		return sliceEntryBytes * len(v)
	case map[string]any:
		return mapEntryBytes * len(v)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		return sliceEntryBytes * rv.Len()
	case reflect.Map:
		return mapEntryBytes * rv.Len()
	}
	// Numbers and booleans cost nothing here: loops that produce them are
	// already bounded by MaxIterations.
	return 0
}

// deepSize estimates the length of v printed as indented JSON (or with
// %v), which is also roughly what decoding such JSON allocates. It stops
// counting past limit, so huge or shared inputs cost at most limit steps.
func deepSize(v any, limit int) int {
	s := sizer{limit: limit}
	s.value(v, 1)
	return s.total
}

type sizer struct {
	total, limit int
}

func (s *sizer) add(n int) bool {
	s.total += n
	return s.total <= s.limit
}

func (s *sizer) value(v any, depth int) bool {
	// Indentation grows with depth in toJSON's output, one line per entry.
	line := 2*depth + 2
	switch v := v.(type) {
	case nil, bool, int, float64:
		return s.add(scalarBytes)
	case string:
		return s.add(len(v) + 2)
	case []any:
		for _, e := range v {
			if !s.add(line) || !s.value(e, depth+1) {
				return false
			}
		}
		return s.add(2)
	case map[string]any:
		for k, e := range v {
			if !s.add(line+len(k)+4) || !s.value(e, depth+1) {
				return false
			}
		}
		return s.add(2)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			if !s.add(line) || !s.value(rv.Index(i).Interface(), depth+1) {
				return false
			}
		}
	case reflect.Map:
		iter := rv.MapRange()
		for iter.Next() {
			if !s.add(line) || !s.value(iter.Key().Interface(), depth+1) || !s.value(iter.Value().Interface(), depth+1) {
				return false
			}
		}
	}
	return s.add(scalarBytes)
}
