package setvariable_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/setvariable"
)

func run(t *testing.T, cfg string, vars map[string]any) (map[string]any, error) {
	t.Helper()
	spec, _ := node.Default.Lookup("set_variable")
	var decoded map[string]any
	if err := json.Unmarshal([]byte(cfg), &decoded); err != nil {
		t.Fatal(err)
	}
	if errs := node.ValidateConfig(spec, decoded); len(errs) > 0 {
		t.Fatalf("config refused: %v", errs)
	}
	exec, err := spec.Build(node.BuildInput{NodeID: "sv", Type: "set_variable", Config: json.RawMessage(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = exec.Execute(context.Background(), &node.Exec{NodeID: "sv", Vars: vars})
	return vars, err
}

func TestAssignments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  string
		in   map[string]any
		want map[string]any
	}{
		{"copy a nested value", `{"assignments":[{"var":"qty","from":"extracted.quantity"}]}`,
			map[string]any{"extracted": map[string]any{"quantity": 3.0}},
			map[string]any{"extracted": map[string]any{"quantity": 3.0}, "qty": 3.0}},
		{"default when the source is missing", `{"assignments":[{"var":"qty","from":"extracted.quantity","default":1}]}`,
			map[string]any{}, map[string]any{"qty": 1.0}},
		{"coerce text to a number", `{"assignments":[{"var":"n","from":"raw","coerce":"number"}]}`,
			map[string]any{"raw": " 42.5 "}, map[string]any{"raw": " 42.5 ", "n": 42.5}},
		{"coerce text to a boolean", `{"assignments":[{"var":"ok","from":"raw","coerce":"boolean"}]}`,
			map[string]any{"raw": "Yes"}, map[string]any{"raw": "Yes", "ok": true}},
		{"coerce text to JSON", `{"assignments":[{"var":"obj","from":"raw","coerce":"json"}]}`,
			map[string]any{"raw": `{"a":[1,2]}`}, map[string]any{"raw": `{"a":[1,2]}`, "obj": map[string]any{"a": []any{1.0, 2.0}}}},
		{"coerce a number to a string", `{"assignments":[{"var":"s","from":"n","coerce":"string"}]}`,
			map[string]any{"n": 8.0}, map[string]any{"n": 8.0, "s": "8"}},
		{"expression sees earlier assignments", `{"assignments":[{"var":"a","expression":"qty * 2"},{"var":"b","expression":"a + 1"}]}`,
			map[string]any{"qty": 2.0}, map[string]any{"qty": 2.0, "a": 4.0, "b": 5.0}},
		{"expression default for an unset variable", `{"assignments":[{"var":"a","expression":"missing + 1","default":0}]}`,
			map[string]any{}, map[string]any{"a": 0.0}},
		{"small JSON object of templates keeps types", `{"assignments":[{"var":"o","value":{"qty":"{{qty}}","note":"Order of {{qty}} for {{name}}","tags":["{{name}}"]}}]}`,
			map[string]any{"qty": 2.0, "name": `Ann "the" <Admin>`},
			map[string]any{"qty": 2.0, "name": `Ann "the" <Admin>`, "o": map[string]any{"qty": 2.0, "note": `Order of 2 for Ann "the" <Admin>`, "tags": []any{`Ann "the" <Admin>`}}}},
		{"a constant", `{"assignments":[{"var":"c","value":[1,"two",true,null]}]}`,
			map[string]any{}, map[string]any{"c": []any{1.0, "two", true, nil}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := run(t, tc.cfg, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, normalize(got)); d != "" {
				t.Fatalf("vars (-want +got):\n%s", d)
			}
		})
	}
}

func TestAssignmentFailures(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, cfg, want string }{
		{"unset variable without default", `{"assignments":[{"var":"x","value":"kept"},{"var":"q","from":"a.b"}]}`, `assignment 2 (q): variable "a.b" is not set and the assignment has no default`},
		{"number from text", `{"assignments":[{"var":"q","value":"abc","coerce":"number"}]}`, `assignment 1 (q): coerce "number": "abc" is not a number`},
		{"boolean from text", `{"assignments":[{"var":"q","value":"maybe","coerce":"boolean"}]}`, `assignment 1 (q): coerce "boolean": "maybe" is not true or false`},
		{"JSON from bad text", `{"assignments":[{"var":"q","value":"{nope","coerce":"json"}]}`, `assignment 1 (q): coerce "json": the text is not valid JSON`},
		{"expression reading an unset variable", `{"assignments":[{"var":"q","expression":"nope + 1"}]}`, `assignment 1 (q): expression "nope + 1": variable "nope" is not set`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			vars := map[string]any{"x": "before"}
			_, err := run(t, tc.cfg, vars)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
			if d := cmp.Diff(map[string]any{"x": "before"}, vars); d != "" {
				t.Fatalf("a failed node changed the context:\n%s", d)
			}
		})
	}
}

// normalize makes numbers comparable whatever Go type an expression gave them.
func normalize(v map[string]any) map[string]any {
	b, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}
