package tmpl

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/mailgun/raymond/v2/parser"
)

// fuzzVars decodes a fixed document with val planted at several depths, so
// fuzzed templates meet JSON's shapes: objects, arrays, numbers, null.
func fuzzVars(t *testing.T, val string) map[string]any {
	t.Helper()
	v, err := json.Marshal(val)
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"val": ` + string(v) + `, "n": 8, "f": 2.5, "b": true, "z": null, "e": "",
		"obj": {"val": ` + string(v) + `, "length": "L", "list": [` + string(v) + `, 2, false, null, {"k": "v"}]},
		"list": [{"name": "a", "val": ` + string(v) + `}, {"name": "b"}, 3], "empty": [], "none": {}}`
	var vars map[string]any
	if err := json.Unmarshal([]byte(doc), &vars); err != nil {
		t.Fatal(err)
	}
	return vars
}

var templateSeeds = []string{
	"Done {{v8}} for {{userMessage}}",
	"{{val}} {{obj.val}} {{obj.list.0}} {{list.0.name}} {{list.length}} {{obj.length}} {{val.length}}",
	"{{#each list}}{{@index}}:{{name}}{{else}}none{{/each}}",
	"{{#if b}}{{{val}}}{{else}}{{&val}}{{/if}}",
	"{{#with obj}}{{#each list}}{{this}}|{{../val}}{{/each}}{{/with}}",
	"{{#list}}{{name}}{{/list}}{{^empty}}-{{/empty}}",
	`{{lookup obj "val"}} {{lookup list 1}}`,
	"a {{~val~}} b {{! c }} \\{{x}}",
	"{{obj.[list].[4].k}} {{[val]}} {{obj/list/1}}",
	"{{#each obj}}{{@key}}={{this}};{{/each}}",
	"{{{{raw}}}}{{val}}{{{{/raw}}}}",
}

func FuzzParseRender(f *testing.F) {
	for _, s := range templateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tp, err := Parse(src)
		if err != nil {
			// Only the checker may reject: an error from raymond's parser on
			// a source the checker passed means they disagree (and leak).
			if _, fixed, scanErr := scan(src); scanErr == nil {
				_, rayErr := parser.Parse(fixed)
				t.Fatalf("checker accepted what Parse refused: %v (raymond: %v)", err, rayErr)
			}
			return
		}
		if _, err := tp.engine(); err != nil {
			t.Fatalf("rewritten source does not parse: %v", err)
		}
		vars := fuzzVars(t, "<b>\"x\"</b>")
		for _, render := range []func(map[string]any) (string, error){tp.Render, tp.renderEngine} {
			out, err := render(vars)
			if err == nil && len(out) > MaxOutputBytes {
				t.Fatalf("output of %d bytes passed the limit", len(out))
			}
		}
	})
}

func FuzzFastPathMatchesRaymond(f *testing.F) {
	for _, s := range templateSeeds {
		f.Add(s, "x")
	}
	f.Add("{{obj.length}}{{list.5}}{{obj.list.1}}{{z.q}}{{n.length}}", "")
	f.Add("[{{val}}]\n{{~ obj.val ~}}", "<&>")
	f.Add("{{#each list}}{{@index}}. {{name}} {{val}}\n{{/each}}{{#each empty}}x{{/each}}", "v")
	f.Add("{{#each obj.list}}{{k}}{{/each}}{{#each z}}-{{/each}}", "")
	f.Fuzz(func(t *testing.T, src, val string) {
		tp, err := Parse(src)
		if err != nil || tp.fast == nil {
			return
		}
		vars := fuzzVars(t, val)
		fast, handled, fastErr := tp.fast.render(vars)
		if !handled {
			// An each block steps aside for items that are not objects
			// or lack a field, which raymond resolves from outside.
			if !tp.fast.blocks {
				t.Fatalf("fast path stepped aside on JSON data")
			}
			return
		}
		slow, slowErr := tp.renderEngine(vars)
		if fast != slow || (fastErr == nil) != (slowErr == nil) {
			t.Fatalf("fast path %q (%v), raymond %q (%v)", fast, fastErr, slow, slowErr)
		}
	})
}

func FuzzJSONTemplate(f *testing.F) {
	f.Add("{{val}}", `", "admin": true, "x": "`)
	f.Add("said {{val}}", "line\n\"quote\" \\ back")
	f.Add("{{obj}}", "{}")
	f.Add("{{#each list}}{{val}}{{/each}}", "</script>")
	f.Add("{{{val}}}", "\x00\xff")
	f.Fuzz(func(t *testing.T, leaf, val string) {
		src, err := json.Marshal(map[string]any{"a": leaf, "nested": map[string]any{"b": leaf}, "fixed": "x"})
		if err != nil {
			return
		}
		jt, err := ParseJSON(string(src))
		if err != nil {
			return
		}
		out, err := jt.RenderBytes(fuzzVars(t, val))
		if err != nil {
			return
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("output %q is not JSON: %v", out, err)
		}
		if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{"a", "fixed", "nested"}) {
			t.Fatalf("keys became %v", keys)
		}
		if got["fixed"] != "x" {
			t.Fatalf("fixed became %v", got["fixed"])
		}
	})
}
