package expression

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestMissingVariable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src, name string
	}{
		{"v99 > 5", "v99"},
		{"absent", "absent"},
		{"absent?.b", "absent"},         // ?. alone tolerates nil, not absence
		{"absent?.b == 1", "absent"},    // so a typo cannot turn into false
		{"absent.b ?? 0", "absent"},     // absent.b would fail on nil anyway
		{"absent[0] ?? 0", "absent"},    // likewise
		{"(absent + 1) ?? 0", "absent"}, // only plain paths are exempt
		{"items?.[i] ?? 0", "i"},        // index expressions are not the root
		{"v7 ?? absent", "absent"},      // the fallback must exist
		{"ok ? v7 : absent", "absent"},  // the check is static
		{"ok || absent", "absent"},
		{"map(items, # + absent)", "absent"},
		{"let x = absent; x", "absent"},
		{"b1 + a1", "a1"}, // the first in sorted order
	}
	vars := testVars()
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			got, err := p.Eval(vars)
			var missing *MissingVariableError
			if !errors.As(err, &missing) {
				t.Fatalf("Eval = %v, %v; want a *MissingVariableError", got, err)
			}
			if missing.Name != tt.name || missing.Source != tt.src {
				t.Errorf("error = %+v, want Name %q and Source %q", missing, tt.name, tt.src)
			}
		})
	}
}

func TestMissingVariableMessage(t *testing.T) {
	t.Parallel()
	p, err := Compile("v8 > 5")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Eval(map[string]any{"v7": 7})
	const want = `expression "v8 > 5": variable "v8" is not set`
	if err == nil || err.Error() != want {
		t.Fatalf("Eval error = %v, want %s", err, want)
	}
	if _, err := p.EvalBool(nil); err == nil || err.Error() != want {
		t.Errorf("EvalBool(nil) error = %v, want %s", err, want)
	}
}

func TestMissingVariableLongSource(t *testing.T) {
	t.Parallel()
	src := "absent > 1 && " + strings.Repeat("v7 > 1 && ", 20) + "true"
	p, err := Compile(src)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Eval(testVars())
	const want = `expression "absent > 1 && v7 > 1 && v7 > 1 && v7 > 1 && v7 > 1 && v7 > 1 && v7 > 1 && v7 ...": variable "absent" is not set`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant  %s", err, want)
	}
}

func TestCoalesceExemption(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want any
	}{
		{"x ?? 0", 0},
		{"x?.b ?? 0", 0},
		{"x?.b.c ?? 0", 0},
		{"x?.[0] ?? 0", 0},
		{"x ?? y ?? 0", 0},
		{"(x ?? y) ?? 0", 0},
		{"x ?? (y ?? 0)", 0},
		{`(x ?? "d") + "!"`, "d!"},
		{"(x ?? 0) > 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			t.Parallel()
			p, err := Compile(tt.src)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			got, err := p.Eval(map[string]any{})
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Eval = %#v, want %#v", got, tt.want)
			}
		})
	}
}

// A root that is set but lacks a field reads the field as nil: the root is
// what the run sets, and objects coming from JSON often omit keys.
func TestMissingField(t *testing.T) {
	t.Parallel()
	vars := map[string]any{"a": map[string]any{"x": 1.0}}
	for src, want := range map[string]any{
		"a.b":        nil,
		"a.b == nil": true,
		"a.b ?? 0":   0,
		"a?.b?.c":    nil,
	} {
		p, err := Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Eval(vars)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, %v; want %#v", src, got, err, want)
		}
	}
	// Reading further through the nil is expr's error, with its position.
	p, err := Compile("a.b.c")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Eval(vars)
	const want = `expression "a.b.c": cannot fetch c from <nil> (1:5)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestVariables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want []string
	}{
		{"a?.b ?? 0", []string{"a"}},
		{"len(items) > x.y", []string{"items", "x"}},
		{"v7 + v7 * v7", []string{"v7"}},
		{"count == 3", []string{"count"}},
		{"count(items, # > limit)", []string{"items", "limit"}},
		{"map(orders, .total)", []string{"orders"}},
		{"let n = a + 1; n * b", []string{"a", "b"}},
		{"let n = 1; n", []string{}},
		{`$env["x"] ?? y`, []string{"y"}},
		{`{k: v}.k`, []string{"v"}},
		{`1 + 2`, []string{}},
	}
	for _, tt := range tests {
		p, err := Compile(tt.src)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.src, err)
		}
		if got := p.Variables(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Variables(%q) = %#v, want %#v", tt.src, got, tt.want)
		}
	}
}
