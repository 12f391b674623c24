package tmpl

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestJSONTemplateRender(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"typed leaves",
			`{"user": "{{user}}", "n": "{{v8}}", "ok": "{{yes}}", "tags": "{{tags}}", "gone": "{{missing}}", "num": "{{num}}"}`,
			`{"gone":null,"n":8,"num":1.50,"ok":true,"tags":["a","b"],"user":{"address":{"city":"Paris"},"name":"Ada"}}`},
		{"spaces inside braces", `{"n": "{{ v8 }}"}`, `{"n":8}`},
		{"two mustaches stay text", `{"n": "{{v8}}{{! c }}", "m": "{{v8}}{{v8}}"}`, `{"m":"88","n":"8"}`},
		{"text leaves", `{"a": "n={{v8}}", "b": " {{v8}}", "c": "{{{v8}}}", "d": "{{&v8}}", "e": "{{~v8}}"}`,
			`{"a":"n=8","b":" 8","c":"8","d":"8","e":"8"}`},
		{"nested", `{"order": {"id": "{{items.0.name}}", "lines": ["{{items.1.name}}", 3, {"q": "{{count}}"}]}}`,
			`{"order":{"id":"tea","lines":["cake",3,{"q":3}]}}`},
		{"constants kept", `{"n": 1.50, "big": 10000000000000001, "t": true, "z": null, "s": "plain", "e": [], "o": {}}`,
			`{"big":10000000000000001,"e":[],"n":1.50,"o":{},"s":"plain","t":true,"z":null}`},
		{"keys not rendered", `{"{{userMessage}}": "{{userMessage}}"}`, `{"{{userMessage}}":"hi there"}`},
		{"no html escaping", `{"h": "{{html}}", "o": "{{obj}}"}`, `{"h":"<b>&\"'","o":{"a":"<x>","b":1}}`},
		{"blocks in a leaf", `{"list": "{{#each tags}}{{this}};{{/each}}"}`, `{"list":"a;b;"}`},
		{"top-level string", `"{{userMessage}}"`, `"hi there"`},
		{"top-level array", `["{{v8}}", "{{userMessage}}"]`, `[8,"hi there"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			jt, err := ParseJSON(tc.src)
			if err != nil {
				t.Fatalf("ParseJSON: %v", err)
			}
			got, err := jt.RenderBytes(testVars())
			if err != nil {
				t.Fatalf("RenderBytes: %v", err)
			}
			if string(got) != tc.want {
				t.Errorf("RenderBytes =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestJSONTemplateUserTextCannotChangeStructure(t *testing.T) {
	t.Parallel()
	jt, err := ParseJSON(`{"text": "{{msg}}", "quoted": "said \"{{msg}}\"", "role": "user"}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []any{
		`", "admin": true, "x": "`,
		`\", \"admin\": true}`,
		"line1\nline2\t\\",
		`{"admin": true}`,
		"{{role}}",
		"</script><script>",
		map[string]any{"admin": true},
	} {
		out, err := jt.RenderBytes(map[string]any{"msg": msg})
		if err != nil {
			t.Fatalf("RenderBytes(%q): %v", msg, err)
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output %s is not JSON: %v", out, err)
		}
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{"quoted", "role", "text"}) {
			t.Errorf("msg %q changed the keys to %v", msg, keys)
		}
		if got["role"] != "user" {
			t.Errorf("msg %q changed role to %v", msg, got["role"])
		}
	}
}

func TestParseJSONErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{``, "not valid JSON"},
		{`{"a": 1`, "not valid JSON"},
		{`{"a": 1} {"b": 2}`, "not valid JSON"},
		{`{a: 1}`, "not valid JSON"},
		{`{"a": {"b/c": ["ok", "{{#if x}}"]}}`, "template at /a/b~1c/1: invalid template: line 1: {{#if}} is never closed"},
		{`"{{/x}}"`, "template at /: invalid template"},
	}
	for _, tc := range tests {
		_, err := ParseJSON(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseJSON(%q) error = %v, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func TestJSONTemplateLimits(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 100<<10)
	leaves := make([]string, 12)
	for i := range leaves {
		leaves[i] = `"{{big}}"`
	}
	for _, src := range []string{
		"[" + strings.Join(leaves, ",") + "]",
		`[` + strings.Repeat(`"x{{big}}",`, 11) + `"x"]`,
		`[` + strings.Repeat(`"{{bigs}}",`, 11) + `"x"]`,
		`[` + strings.Repeat(`"{{typed}}",`, 11) + `"x"]`,
	} {
		jt, err := ParseJSON(src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = jt.RenderBytes(map[string]any{"big": big, "bigs": []any{big}, "typed": []string{big}})
		if !errors.Is(err, ErrOutputTooLarge) {
			t.Errorf("RenderBytes(%.30s…) error = %v, want ErrOutputTooLarge", src, err)
		}
	}
}

func TestJSONTemplateSource(t *testing.T) {
	t.Parallel()
	src := `{"a": "{{b}}"}`
	jt, err := ParseJSON(src)
	if err != nil {
		t.Fatal(err)
	}
	if jt.Source() != src {
		t.Errorf("Source() = %q", jt.Source())
	}
	v, err := jt.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := v.(map[string]any); !ok || m["a"] != nil || len(m) != 1 {
		t.Errorf("Render(nil) = %#v, want map with a: nil", v)
	}
}
