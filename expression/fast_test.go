package expression

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

// agree evaluates p against vars with and without the fast path and
// describes any difference in value, type or error.
func agree(p *Program, vars map[string]any) error {
	got, gerr := p.Eval(vars)
	want, werr := p.eval(vars, false)
	switch {
	case (gerr == nil) != (werr == nil):
		return fmt.Errorf("%q: fast path gives %#v, %v; VM gives %#v, %v", p.source, got, gerr, want, werr)
	case gerr != nil && gerr.Error() != werr.Error():
		return fmt.Errorf("%q: fast path fails with %q, VM with %q", p.source, gerr, werr)
	case !same(got, want):
		return fmt.Errorf("%q: fast path gives %#v (%T), VM %#v (%T)", p.source, got, got, want, want)
	}
	return nil
}

// same reports whether a and b have the same type and value, floats
// compared bit for bit so that NaN matches NaN and -0 differs from 0.
func same(a, b any) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	if x, ok := a.(float64); ok {
		y := b.(float64)
		return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
	}
	return reflect.DeepEqual(a, b)
}

// fastValues are operand values of every type a context may hold, and a
// few it should not but might, which the fast path must leave to the VM.
func fastValues() []any {
	n := 7
	return []any{
		0, 1, -1, 2, 7, math.MaxInt, math.MinInt, 1<<53 + 1,
		0.0, math.Copysign(0, -1), 1.5, -2.5, 7.0, 8.0, math.NaN(), math.Inf(1), math.Inf(-1), 1e308, 0.1,
		"", "a", "gold", "7",
		true, false, nil,
		map[string]any{"x": map[string]any{"y": 1.0}, "k": "v", "n": nil},
		map[string]any(nil),
		[]any{1.0}, int64(7), float32(1.5), uint(3), &n, map[string]int{"x": 1},
	}
}

// fastShapes are sources the fast path covers, over variables a and b.
var fastShapes = []string{
	"a", "a.x", "a.x.y", `a["k"]`, "a.n", "a.missing",
	"-a", "+a", "!a", "not a",
	"a + b", "a - b", "a * b", "a / b", "a % b",
	"a == b", "a != b", "a < b", "a <= b", "a > b", "a >= b",
	"a && b", "a || b", "a and b", "a or b", "!a && b", "a || !b",
	"a + 1", "1 + a", "a - 1.5", "2.5 * a", "a / 0", "a % 0", "a % -1", "a / 2",
	`a + ",s8"`, `"s" + a`, `a == "gold"`, `a < "b"`, "a == nil", "nil != a",
	"a == true", "a > 5", "5 <= a", "a == 7", "a == 7.0", "a.x.y + b",
	"a > 1 && b < 2", "a == b || a != b", "(a + b) * (a - b)", "-(a * b)",
	"a && false", "false && a", "a || true", "a && true",
}

func TestFastPathMatchesVM(t *testing.T) {
	t.Parallel()
	values := fastValues()
	for _, src := range fastShapes {
		p, err := Compile(src)
		if err != nil {
			t.Fatalf("Compile(%q): %v", src, err)
		}
		if p.fast == nil {
			t.Errorf("%q has no fast path", src)
		}
		for _, a := range values {
			for _, b := range values {
				if err := agree(p, map[string]any{"a": a, "b": b}); err != nil {
					t.Errorf("a = %#v, b = %#v: %v", a, b, err)
				}
			}
			if err := agree(p, map[string]any{"b": a}); err != nil {
				t.Errorf("a missing, b = %#v: %v", a, err)
			}
		}
	}
}

// TestFastPathResults pins results down, and checks the fast path, not the
// VM, produced them.
func TestFastPathResults(t *testing.T) {
	t.Parallel()
	vars := testVars()
	vars["big"] = math.MaxInt
	tests := []struct {
		src  string
		want any
	}{
		{"1", 1}, {"2.5", 2.5}, {`"s1"`, "s1"}, {"true", true}, {"nil", nil},
		{"-3", -3}, {"1 + 2", 3}, {`"a" + "b"`, "ab"},
		{"v7", 7}, {"user", vars["user"]}, {"user.address.city", "Paris"},
		{"user.missing", nil}, {`user["name"]`, "Ada"},
		{"v7 + 1", 8}, {"v7 + 1.0", 8.0}, {"v8 + 1", 9.0}, {"v7 - v8", -1.0},
		{"v7 * 2", 14}, {"v7 / 2", 3.5}, {"v7 / 0", math.Inf(1)}, {"v7 % 4", 3},
		{"big + 1", math.MinInt}, {"-v7", -7}, {"-v8", -8.0},
		{`trail + ",s8"`, "s1,s7,s8"}, {`tier == "gold"`, true},
		{`_lastNodeErrorCode == "TIMEOUT"`, true}, {"amount > 1000", true},
		{"v8 > 5", true}, {"v7 == 7.0", true}, {"v7 < v8", true},
		{`tier < "silver"`, true}, {"nothing == nil", true}, {`nothing == ""`, false},
		{"v7 == \"7\"", false}, {"ok == true", true}, {"ok != false", true},
		{`amount > 1000 && tier == "gold"`, true}, {"!ok || v7 > 1", true},
		{"ok && v7", 7}, {"not ok", false},
		{"user.age >= 36 and user.name == \"Ada\"", true},
	}
	for _, tt := range tests {
		p, err := Compile(tt.src)
		if err != nil {
			t.Fatalf("Compile(%q): %v", tt.src, err)
		}
		if p.fast == nil {
			t.Errorf("%q has no fast path", tt.src)
			continue
		}
		got, ok := p.fast.eval(vars)
		if !ok {
			t.Errorf("%q: the fast path fell back to the VM", tt.src)
			continue
		}
		if !same(got, tt.want) {
			t.Errorf("%q = %#v (%T), want %#v (%T)", tt.src, got, got, tt.want, tt.want)
		}
	}
}
