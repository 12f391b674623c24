package tmpl

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// testVars is the shared context of the table tests: JSON-decoded shapes
// plus the Go values callers may put in vars directly.
func testVars() map[string]any {
	return map[string]any{
		"v8":          8.0,
		"half":        2.5,
		"big":         1e21,
		"count":       3,
		"num":         json.Number("1.50"),
		"yes":         true,
		"no":          false,
		"nothing":     nil,
		"empty":       "",
		"html":        `<b>&"'`,
		"userMessage": "hi there",
		"user":        map[string]any{"name": "Ada", "address": map[string]any{"city": "Paris"}},
		"items": []any{
			map[string]any{"name": "tea", "price": 2.5},
			map[string]any{"name": "cake", "price": 4.0},
		},
		"tags":  []any{"a", "b"},
		"obj":   map[string]any{"b": 1.0, "a": "<x>"},
		"none":  []any{},
		"typed": []string{"x", "y"},
	}
}

func TestRender(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"text", "just text", "just text"},
		{"chat line", "Done {{v8}} for {{userMessage}}", "Done 8 for hi there"},
		{"spaces in braces", "{{ userMessage }}", "hi there"},
		{"nested path", "{{user.address.city}}", "Paris"},
		{"slash path", "{{user/name}}", "Ada"},
		{"array index", "{{items.1.name}}", "cake"},
		{"array index out of range", "[{{items.9.name}}]", "[]"},
		{"length of array", "{{items.length}}", "2"},
		{"length of string", "{{userMessage.length}}", "8"},
		{"missing", "[{{missing}}][{{user.missing.deep}}][{{nothing}}]", "[][][]"},
		{"float", "{{v8}} {{half}} {{big}}", "8 2.5 1000000000000000000000"},
		{"int and number", "{{count}} {{num}}", "3 1.50"},
		{"bools", "{{yes}} {{no}}", "true false"},
		{"object as json", "{{obj}}", `{"a":"<x>","b":1}`},
		{"array as json", "{{tags}} {{none}}", `["a","b"] []`},
		{"go slice as json", "{{typed}}", `["x","y"]`},
		{"no html escaping", "{{html}}", `<b>&"'`},
		{"ampersand", "{{&html}}", `<b>&"'`},
		{"triple stash", "{{{html}}}", `<b>&"'`},
		{"whitespace control", "a  {{~userMessage~}}  b", "ahi thereb"},
		{"escaped mustache", `\{{userMessage}}`, "{{userMessage}}"},
		{"comment", "a{{! note }}b{{!-- {{x}} --}}c", "abc"},
		{"if", "{{#if yes}}y{{else}}n{{/if}}", "y"},
		{"if else", "{{#if no}}y{{else}}n{{/if}}", "n"},
		{"if empty string", "{{#if empty}}y{{else}}n{{/if}}", "n"},
		{"else if", "{{#if no}}1{{else if yes}}2{{else}}3{{/if}}", "2"},
		{"unless", "{{#unless no}}shown{{/unless}}", "shown"},
		{"with", "{{#with user}}{{name}} in {{address.city}}{{/with}}", "Ada in Paris"},
		{"with else", "{{#with missing}}x{{else}}none{{/with}}", "none"},
		{"each", "{{#each items}}{{@index}} {{this.name}} {{price}};{{/each}}", "0 tea 2.5;1 cake 4;"},
		{"each first last", "{{#each tags}}{{#if @first}}[{{/if}}{{this}}{{#if @last}}]{{/if}}{{/each}}", "[ab]"},
		{"each else", "{{#each none}}x{{else}}empty{{/each}}", "empty"},
		{"each object sorted", "{{#each obj}}{{@key}}={{this}} {{/each}}", "a=<x> b=1 "},
		{"each parent", "{{#each tags}}{{this}}{{../userMessage.length}}{{/each}}", "a8b8"},
		{"each block param", "{{#each items as |it|}}{{it.name}} {{/each}}", "tea cake "},
		{"section over array", "{{#tags}}<{{.}}>{{/tags}}", "<a><b>"},
		{"section over object", "{{#user}}{{name}}{{/user}}", "Ada"},
		{"inverse section", "{{^none}}nothing{{/none}}", "nothing"},
		{"lookup", `{{lookup user "name"}} {{lookup tags 1}}`, "Ada b"},
		{"lookup object", `{{lookup user "address"}}`, `{"city":"Paris"}`},
		{"with lookup", `{{#with (lookup items 0)}}{{name}}{{/with}}`, "tea"},
		{"root", "{{#each tags}}{{@root.userMessage}}{{/each}}", "hi therehi there"},
		{"raw block", "{{{{raw}}}}{{x}}{{{{/raw}}}}", ""},
		{"log prints nothing", `a{{log "x"}}b`, "ab"},
		{"missing inside an array context", "[{{#with tags}}{{missing}}{{/with}}]", "[]"},
		{"standalone block lines", "list:\n{{#each tags}}\n- {{this}}\n{{/each}}\nend", "list:\n- a\n- b\nend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tp, err := Parse(tc.src)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.src, err)
			}
			got, err := tp.Render(testVars())
			if err != nil {
				t.Fatalf("Render(%q): %v", tc.src, err)
			}
			if got != tc.want {
				t.Errorf("Render(%q) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

func TestRenderWith(t *testing.T) {
	t.Parallel()
	tp, err := Parse("{{question}}\n{{#each awaitReplyOptions}}{{slot}}. {{label}}\n{{/each}}")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]any{"question": "Pick one", "awaitReplyOptions": "shadowed"}
	extra := map[string]any{"awaitReplyOptions": []any{
		map[string]any{"slot": 1.0, "label": "Tea"},
		map[string]any{"slot": 2.0, "label": "Cake"},
	}}
	got, err := tp.RenderWith(vars, extra)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Pick one\n1. Tea\n2. Cake\n"; got != want {
		t.Errorf("RenderWith = %q, want %q", got, want)
	}
	if vars["awaitReplyOptions"] != "shadowed" || len(vars) != 2 {
		t.Errorf("RenderWith modified vars: %v", vars)
	}
	fast, err := Parse("{{a}}-{{b}}")
	if err != nil {
		t.Fatal(err)
	}
	got, err = fast.RenderWith(map[string]any{"a": "1", "b": "2"}, map[string]any{"b": "3"})
	if err != nil || got != "1-3" {
		t.Errorf("fast RenderWith = %q, %v; want 1-3", got, err)
	}
}

func TestStatic(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]bool{
		"":                   true,
		"plain text":         true,
		"a } b { c":          true,
		"{{x}}":              false,
		`\{{x}}`:             false,
		"{{! comment }}":     false,
		"x {{#if a}}{{/if}}": false,
	} {
		tp, err := Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if tp.IsStatic() != want {
			t.Errorf("IsStatic(%q) = %v, want %v", src, tp.IsStatic(), want)
		}
		if tp.Source() != src {
			t.Errorf("Source() = %q, want %q", tp.Source(), src)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"{{#if x}}open", "line 1: {{#if}} is never closed"},
		{"a\n{{#if x}}{{/each}}", "line 2: {{/each}} does not close {{#if}}"},
		{"{{{{raw}}}}x{{{{/other}}}}", "{{{{/other}}}} does not close {{{{raw}}}}"},
		{"{{/if}}", `line 1: "{{/" outside of a block`},
		{"{{else}}", `line 1: "{{else}}" outside of a block`},
		{"{{x", "line 1: unclosed expression"},
		{"{{x y=}}", `line 1: expected a name, got "}}"`},
		{"{{foo.this}}", `line 1: invalid path "foo.this"`},
		{"{{!-- open", "line 1: unclosed comment"},
		{"{{#each xs as ||}}{{/each}}", `line 1: expected a name, got "|"`},
		{"{{#each xs as |x i|}}{{/each}}", "a second block param (as |item i|) is not supported"},
		{"{{#with a}}{{if b}}{{/with}}", `line 1: "if" is a block helper`},
		{"{{lookup (each x) 1}}", `"each" is a block helper`},
		{"{{__tmpl_text x}}", `"__tmpl_text" is a reserved name`},
		{"{{{{raw}}}}{{{{/raw}}}}", "expected raw block content"},
		{strings.Repeat("x", MaxSourceBytes+1), "65536-byte limit"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.src)
		if err == nil {
			t.Errorf("Parse(%.40q) succeeded, want error containing %q", tc.src, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%.40q) error = %q, want it to contain %q", tc.src, err, tc.want)
		}
	}
}

func TestFloatText(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{0, math.Copysign(0, -1), 8, -8, 2.5, 1e14 + 1, 1e15, 1e21, 123456789.125, -0.001, math.Inf(1), math.NaN()} {
		var b strings.Builder
		if _, err := writeKnown(&b, f); err != nil {
			t.Fatal(err)
		}
		if want := strconv.FormatFloat(f, 'f', -1, 64); b.String() != want {
			t.Errorf("writeKnown(%v) = %q, want %q", f, b.String(), want)
		}
	}
}

func TestConcurrentRender(t *testing.T) {
	t.Parallel()
	fast, err := Parse("Done {{v8}} for {{user.name}}")
	if err != nil {
		t.Fatal(err)
	}
	slow, err := Parse("{{#each items}}{{name}}{{/each}} {{lookup user \"name\"}}")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				vars := testVars()
				if got, err := fast.Render(vars); err != nil || got != "Done 8 for Ada" {
					t.Errorf("fast = %q, %v", got, err)
				}
				if got, err := slow.Render(vars); err != nil || got != "teacake Ada" {
					t.Errorf("slow = %q, %v", got, err)
				}
			}
		})
	}
	wg.Wait()
}
