package tmpl

import (
	"strings"
	"testing"

	"github.com/mailgun/raymond/v2/parser"
)

// syntaxCorpus mixes valid and invalid sources. scan must accept exactly what
// raymond's parser accepts, apart from the constructs this package refuses on
// purpose (block helpers outside blocks, reserved names, two block params).
var syntaxCorpus = []string{
	"", "text", "{{x}}", "{{{x}}}", "{{&x}}", "{{~x~}}", "{{~{x}~}}", "{{~&x}}",
	"{{x y z=1 w=(q r)}}", "{{x 'a' \"b\" 1 -2 1.5 true false @index}}",
	"{{#if a}}1{{else if b}}2{{else}}3{{/if}}", "{{#if a}}1{{^}}2{{/if}}",
	"{{^a}}1{{else}}2{{/a}}", "{{^a}}1{{else if b}}2{{/a}}",
	"{{#each xs as |x|}}{{x}}{{/each}}", "{{#each xs as |x i|}}{{/each}}",
	"{{#each xs as ||}}{{/each}}", "{{#each xs as |x}}{{/each}}",
	"{{#a}}{{/b}}", "{{#a.b}}{{/a.b}}", "{{#[a]}}{{/a}}", "{{#a}}{{/[a]}}",
	"{{#1}}{{/01}}", "{{#1.50}}{{/1.5}}", "{{#true}}{{/true}}", "{{#'s'}}{{/\"s\"}}",
	"{{/a}}", "{{else}}", "{{^}}", "{{#a}}", "{{#a}}{{else}}{{else}}{{/a}}",
	"{{{{raw}}}}{{x}}{{{{/raw}}}}", "{{{{raw}}}}{{{{/raw}}}}", "{{{{raw}}}}x{{{{/other}}}}",
	"{{{{raw as |x|}}}}x{{{{/raw}}}}", "{{> p}}", "{{> (p) a b=c}}", "{{> }}",
	"{{x", "{{x}", "{{x}}}", "{{{x}}", "{{(x)}}", "{{x (y}}", "{{x y)}}", "{{x=}}",
	"{{x y=}}", "{{x y=z w}}", "{{../x}}", "{{x/../y}}", "{{this.x}}", "{{x.this}}",
	"{{./x}}", "{{x.}}", "{{@x.y}}", "{{@../x}}", "{{0x1F}}", "{{1i}}", "{{+}}",
	"{{99999999999999999999}}", "{{1e999}}", "{{'unterminated}}", "{{x\ny}}",
	"{{! c }}", "{{!-- c --}}", "{{!-- c }}", "\\{{x}}", "\\\\{{x}}", "{{[a b]}}",
	"{{[a}}", "{{a.[0].b}}", "{{a.0.b}}", "{{a.0}}", "{{a.1a}}", "{{a.1.5}}",
	"{{#with a}}{{#each b}}{{../c}}{{/each}}{{/with}}", "{{#if}}{{/if}}", "{{}}",
	"{{#}}{{/}}", "{{#a as |b|}}{{/a}}", "{{x as |y|}}", "{{#a b=(c d=e)}}{{/a}}",
	"a\n{{#if x}}\n{{/each}}", "{{#a}}{{#b}}{{/a}}{{/b}}", "{{~#a~}}{{~/a~}}",
}

func TestScanAgreesWithRaymond(t *testing.T) {
	t.Parallel()
	for _, src := range syntaxCorpus {
		_, fixed, scanErr := scan(src)
		if scanErr != nil && policyError(scanErr) {
			continue
		}
		if scanErr != nil {
			fixed = src
		}
		_, parseErr := parser.Parse(fixed)
		if (scanErr == nil) != (parseErr == nil) {
			t.Errorf("%q: scan error %v, raymond error %v", src, scanErr, parseErr)
		}
	}
}

func policyError(err error) bool {
	for _, policy := range []string{"block helper", "reserved name", "second block param"} {
		if strings.Contains(err.Error(), policy) {
			return true
		}
	}
	return false
}

func TestNumericSegments(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"{{items.0.name}}":        "{{items.[0].name}}",
		"{{items.1}}":             "{{items.[1]}}",
		"{{a.0.b.1.c}} {{x.2.y}}": "{{a.[0].b.[1].c}} {{x.[2].y}}",
		"{{a.1.5}}":               "{{a.[1].[5]}}",
		"{{a 1.5}}":               "{{a 1.5}}",
		"items.0.name":            "items.0.name",
	} {
		if got, _ := lexPaths(src); got != want {
			t.Errorf("lexPaths(%q) = %q, want %q", src, got, want)
		}
	}
}
