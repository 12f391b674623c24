package callout

import (
	"net/url"
	"strings"
	"testing"
)

func TestURLTemplateEscapesByPosition(t *testing.T) {
	t.Parallel()
	vars := map[string]any{"id": "A/B 1", "up": "..", "q": "x&admin=1#frag", "host": "eu-1", "evil": "x.example.com@10.0.0.1",
		"n": 42.0, "whole": "https://other.example/p?a=1"}
	cases := []struct{ src, want, err string }{
		{"https://api.example.com/orders", "https://api.example.com/orders", ""},
		{"https://api.example.com/orders/{{id}}", "https://api.example.com/orders/A%2FB%201", ""},
		{"https://api.example.com/files/{{up}}/x", "https://api.example.com/files/%2E%2E/x", ""},
		{"https://api.example.com/s?q={{q}}&n={{n}}", "https://api.example.com/s?q=x%26admin%3D1%23frag&n=42", ""},
		{"https://api.example.com/s#{{id}}", "https://api.example.com/s#A%2FB%201", ""},
		{"https://{{host}}.api.example.com/x", "https://eu-1.api.example.com/x", ""},
		{"https://{{evil}}/x", "", "not a host name"},
		{"{{{whole}}}", "https://other.example/p?a=1", ""},
		{"https://api.example.com/raw/{{&id}}", "https://api.example.com/raw/A/B 1", ""},
		{"https://api.example.com/{{! a comment }}x", "https://api.example.com/x", ""},
		{"https://api.example.com/{{missing}}/x", "https://api.example.com//x", ""},
	}
	for _, tc := range cases {
		u, err := ParseURLTemplate(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		got, err := u.Render(vars)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %q, %v; want an error with %q", tc.src, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.src, got, err, tc.want)
		}
	}
}

func TestURLTemplateRefusals(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		"{{base}}/orders":                        "write the URL's scheme and host out",
		"https://x.example/{{#if a}}b{{/if}}":    "block helpers",
		"https://x.example/{{#each a}}{{/each}}": "block helpers",
		"https://x.example/{{id":                 "is not closed",
	} {
		if _, err := ParseURLTemplate(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", src, err, want)
		}
	}
}

// No value, however written, changes the host or adds a path segment or a
// query parameter.
func FuzzURLTemplate(f *testing.F) {
	for _, s := range []string{"a/b", "..", "x&y=z", "#f", "?q", "@evil.com", "%2F", "a b", "\x00", "é"} {
		f.Add(s)
	}
	const src = "https://api.example.com/orders/{{v}}/lines?q={{v}}&fixed=1"
	u, err := ParseURLTemplate(src)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string) {
		out, err := u.Render(map[string]any{"v": v})
		if err != nil {
			return
		}
		p, err := url.Parse(out)
		if err != nil {
			t.Fatalf("%q rendered an unparsable URL %q: %v", v, out, err)
		}
		segs := strings.Split(p.EscapedPath(), "/")
		if p.Host != "api.example.com" || p.User != nil || len(segs) != 4 || segs[1] != "orders" || segs[3] != "lines" || p.Fragment != "" {
			t.Fatalf("%q changed the URL's shape: %q", v, out)
		}
		q := p.Query()
		if len(q) != 2 || q.Get("fixed") != "1" || (strings.ToValidUTF8(v, "") == v && q.Get("q") != v) {
			t.Fatalf("%q changed the query: %q", v, out)
		}
	})
}
