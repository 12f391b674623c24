package expression

import (
	"reflect"
	"testing"
)

// testVars is a run context as the engine holds it: JSON-decoded values
// (float64 numbers) next to ints left by earlier expressions.
func testVars() map[string]any {
	return map[string]any{
		"userAge":            21.0,
		"amount":             1250.0,
		"qty":                2.0,
		"count":              3.0,
		"v7":                 7,
		"v8":                 8.0,
		"tier":               "gold",
		"trail":              "s1,s7",
		"name":               "  Ada  ",
		"ok":                 true,
		"nothing":            nil,
		"_lastNodeErrorCode": "TIMEOUT",
		"items":              []any{"a", "b", "c"},
		"nums":               []any{1.0, 2.0, 3.0},
		"user": map[string]any{
			"name":    "Ada",
			"age":     36.0,
			"tags":    []any{"vip", "beta"},
			"address": map[string]any{"city": "Paris"},
			"phone":   nil,
		},
		"orders": []any{
			map[string]any{"id": "o1", "total": 10.0},
			map[string]any{"id": "o2", "total": 99.5},
		},
	}
}

func TestEval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want any
	}{
		// arithmetic, with int and float64 mixing
		{"v7 + 1", 8},
		{"v7 * 2", 14},
		{"v7 / 2", 3.5},
		{"v7 % 4", 3},
		{"qty * 2", 4.0},
		{"qty * 2 == 4", true},
		{"v8 - v7", 1.0},
		{"2 ** 3", 8.0},
		{"-v7", -7},
		{"amount / 1000 > 1", true},
		// comparisons, including int and float64 equality
		{"userAge > 18", true},
		{"amount > 1000", true},
		{"count == 3", true},
		{"count == 3.0", true},
		{"v7 == 7.0", true},
		{"v8 != 8", false},
		{"v7 < v8", true},
		{"nothing == nil", true},
		// strings
		{`tier == "gold"`, true},
		{`trail + ",s8"`, "s1,s7,s8"},
		{`_lastNodeErrorCode == "TIMEOUT"`, true},
		{`tier contains "ol"`, true},
		{`tier startsWith "go"`, true},
		{`tier endsWith "ld"`, true},
		{`tier matches "^g.+d$"`, true},
		{`upper(tier)`, "GOLD"},
		{`lower("ABC")`, "abc"},
		{`trim(name)`, "Ada"},
		{`hasPrefix(tier, "g")`, true},
		{`len(tier)`, 4},
		{`split(trail, ",")`, []string{"s1", "s7"}},
		{`join(items, "-")`, "a-b-c"},
		{`replace(trail, "s", "x")`, "x1,x7"},
		{`string(v7) + "!"`, "7!"},
		{`tier[1:3]`, "ol"},
		// booleans
		{"ok && userAge > 18", true},
		{"ok and false", false},
		{"ok || false", true},
		{"not ok", false},
		{"!ok", false},
		// paths into objects and lists
		{"user.name", "Ada"},
		{`user["name"]`, "Ada"},
		{"user.address.city", "Paris"},
		{"user.tags[0]", "vip"},
		{"items[0]", "a"},
		{"items[-1]", "c"},
		{"items[1:]", []any{"b", "c"}},
		{"orders[1].total", 99.5},
		{"user.missing", nil},
		// ?. and ??
		{"user?.address?.city", "Paris"},
		{"user.phone?.number", nil},
		{`user.phone?.number ?? "none"`, "none"},
		{"nothing ?? 0", 0},
		{"user.missing ?? 0", 0},
		{"absent ?? 0", 0},
		{"absent?.b ?? 0", 0},
		{"absent ?? v7", 7},
		// ternary and if/else
		{`amount > 1000 ? "big" : "small"`, "big"},
		{`if userAge < 18 { "minor" } else { "adult" }`, "adult"},
		// in
		{`tier in ["gold", "silver"]`, true},
		{`"b" in items`, true},
		{`"name" in user`, true},
		{"v7 in 1..10", true},
		// builtins
		{"len(items) > 0", true},
		{"len(user)", 5},
		{"sum(nums)", 6.0},
		{"max(v7, 3)", 7},
		{"abs(-v8)", 8.0},
		{"int(amount)", 1250},
		{`float("1.5")`, 1.5},
		{"filter(orders, .total > 50)[0].id", "o2"},
		{"map(orders, .id)", []any{"o1", "o2"}},
		{"all(nums, # > 0)", true},
		{"count(nums, # > 1)", 2},
		{"reduce(nums, #acc + #, 0)", 6.0},
		{"keys(user)", []any{"address", "age", "name", "phone", "tags"}},
		{`values({"b": 2, "a": 1})`, []any{1, 2}},
		{"type(count)", "float"},
		{`date("2024-03-01").Year()`, 2024},
		{`duration("90m").Hours()`, 1.5},
		// let, closures and concatenation together
		{`let n = v7 * 2; n + 1`, 15},
		{`join(map(items, # + "!"), "")`, "a!b!c!"},
		// $env reads without the presence check
		{`$env["v7"]`, 7},
		{`"absent" in $env`, false},
		{`let x = 1; "absent" in $env`, false},
		{`len($env)`, 16},
		{`let x = 1; len($env)`, 16},
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
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Eval = %#v (%T), want %#v (%T)", got, got, tt.want, tt.want)
			}
		})
	}
}

func TestEvalDoesNotModifyVars(t *testing.T) {
	t.Parallel()
	vars := testVars()
	for _, src := range []string{"v7 + 1", "map(items, # + upper(tier))", "let x = 1; x"} {
		p, err := Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Eval(vars); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(vars, testVars()) {
		t.Errorf("vars changed: %v", vars)
	}
}
