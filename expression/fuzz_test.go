package expression

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// FuzzCompileEval feeds arbitrary sources through Compile, Eval and
// EvalBool against a fixed context: nothing may panic, hang, or break the
// documented invariants, and the fast path must agree with the VM.
func FuzzCompileEval(f *testing.F) {
	for _, src := range []string{
		"v7 + 1",
		"v8 > 5",
		`trail + ",s8"`,
		"a?.b ?? 0",
		"len(items) > x.y",
		`tier in ["gold", "silver"] && amount > 1000`,
		"map(items, # + 1)",
		`reduce(1..10, #acc + #acc, "x")`,
		`let s = repeat("ab", 3); upper(s)`,
		"filter(orders, .total > 50)[0]?.id ?? missing",
	} {
		f.Add(src)
	}
	vars := map[string]any{
		"v7":     7,
		"v8":     8.0,
		"tier":   "gold",
		"trail":  "s1",
		"amount": 1250.0,
		"a":      map[string]any{"b": 1.0},
		"x":      map[string]any{"y": 2.0},
		"items":  []any{1.0, 2.0, 3.0},
		"orders": []any{map[string]any{"id": "o1", "total": 99.0}},
		"nil":    nil,
	}
	f.Fuzz(func(t *testing.T, src string) {
		// A hang would stall the fuzzer silently; crashing the worker
		// instead makes it report and keep the input.
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(fmt.Sprintf("Compile or Eval of %q hangs", src))
			}
		}()
		p, err := Compile(src)
		if err != nil {
			return
		}
		if vs := p.Variables(); !slices.IsSorted(vs) || len(slices.Compact(slices.Clone(vs))) != len(vs) {
			t.Fatalf("Variables() = %q, not sorted and unique", vs)
		}
		if err := agree(p, vars); err != nil {
			t.Fatal(err)
		}
		out, err := p.Eval(vars)
		if _, berr := p.EvalBool(vars); err == nil && berr == nil {
			if _, ok := out.(bool); !ok {
				t.Fatalf("EvalBool accepted %#v", out)
			}
		}
	})
}
