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
