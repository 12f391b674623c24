package tmpl

import "testing"

// TestFastPathMatchesRaymond renders fast-path templates both ways.
func TestFastPathMatchesRaymond(t *testing.T) {
	t.Parallel()
	sources := []string{
		"Done {{v8}} for {{userMessage}}",
		"{{half}} {{big}} {{count}} {{num}} {{yes}} {{no}} [{{nothing}}] [{{empty}}]",
		"{{user}} {{user.address}} {{user.address.city}} {{user/name}}",
		"{{items}} {{items.0}} {{items.1.name}} {{items.[1].price}} [{{items.2.name}}]",
		"{{tags.length}} {{user.length}} {{userMessage.length}} {{length}} [{{v8.length}}]",
		"{{html}} {{&html}} {{{html}}} {{obj}} {{none}}",
		"[{{missing}}] [{{missing.deeper}}] [{{tags.x}}] [{{userMessage.0}}]",
		"a {{~ userMessage ~}} b {{! comment }} \\{{literal}} {{~{html}~}}",
		"{{[user].[name]}} {{[userMessage]}}",
		"line one\n  {{userMessage}}\nline three",
		"Pick:\n{{#each items}}{{@index}}. {{name}} at {{price}}\n{{/each}}Reply.",
		"{{#each items}}\n  - {{name}}\n{{/each}}\nend",
		"[{{#each none}}x{{/each}}] [{{#each missing}}x{{/each}}] {{#each items}}{{! c}}{{name.length}}{{/each}}",
	}
	for _, src := range sources {
		tp, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if tp.fast == nil {
			t.Errorf("%q does not take the fast path", src)
			continue
		}
		vars := testVars()
		// A null field of an item: raymond must not take the outer "name".
		vars["items"] = append(vars["items"].([]any), map[string]any{"name": nil, "price": nil})
		vars["name"] = "OUTER"
		fast, handled, fastErr := tp.fast.render(vars)
		slow, slowErr := tp.renderEngine(vars)
		if !handled {
			t.Errorf("%q: fast path stepped aside", src)
		}
		if fast != slow || (fastErr == nil) != (slowErr == nil) {
			t.Errorf("%q: fast path %q (%v), raymond %q (%v)", src, fast, fastErr, slow, slowErr)
		}
	}
}

func TestFastPathEligibility(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]bool{
		"{{a}} {{a.b}} {{&a}} {{{a}}} {{~a~}} {{! c}}": true,
		"{{a.[0]}} {{[a b]}}":                          true,
		"{{this}}":                                     false,
		"{{this.a}}":                                   false,
		"{{../a}}":                                     false,
		"{{@index}}":                                   false,
		"{{a b}}":                                      false,
		"{{a b=1}}":                                    false,
		"{{lookup}}":                                   false,
		"{{\"s\"}}":                                    false,
		"{{1}}":                                        false,
		"{{a.-1}}":                                     false,
		"{{#a}}{{/a}}":                                 false,
		"{{#each a}}{{b}} {{@index}}{{/each}}":         true,
		"{{#each a}}{{b}}{{else}}none{{/each}}":        false,
		"{{#each a as |x|}}{{x}}{{/each}}":             false,
		"{{#each a}}{{this}}{{/each}}":                 false,
		"{{#each a}}{{../b}}{{/each}}":                 false,
		"{{#each a}}{{@key}}{{/each}}":                 false,
		"{{#each a}}{{#if b}}x{{/if}}{{/each}}":        false,
		"{{#each a b}}{{/each}}":                       false,
		"{{#with a}}{{b}}{{/with}}":                    false,
		"{{> p}}":                                      false,
	} {
		tp, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if got := tp.fast != nil; got != want {
			t.Errorf("fast path for %q = %v, want %v", src, got, want)
		}
	}
}

// TestFastEachStepsAside checks the cases where raymond's each does more
// than the fast path: items that are not objects, fields found only in the
// enclosing context, and lists that are maps.
func TestFastEachStepsAside(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		vars map[string]any
	}{
		{"scalar items", map[string]any{"list": []any{"a", 1.0}}},
		{"field from outside", map[string]any{"list": []any{map[string]any{}}, "name": "outer"}},
		{"map list", map[string]any{"list": map[string]any{"a": map[string]any{"name": "x"}}}},
		{"string list", map[string]any{"list": "abc"}},
		{"typed slice", map[string]any{"list": []map[string]any{{"name": "x"}}}},
	} {
		tp, err := Parse("{{#each list}}{{name}};{{/each}}")
		if err != nil {
			t.Fatal(err)
		}
		if _, handled, _ := tp.fast.render(c.vars); handled {
			t.Errorf("%s: the fast path rendered it", c.name)
		}
		got, err := tp.Render(c.vars)
		want, wantErr := tp.renderEngine(c.vars)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("%s: Render = %q (%v), raymond %q (%v)", c.name, got, err, want, wantErr)
		}
	}
}
