package engine_test

import (
	"strings"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/vocab"
)

func TestConditionRouting(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, expr, falseLabel string
		vars                   map[string]any
		status, path, err      string
	}{
		{"true branch", "userAge > 18", "false", map[string]any{"userAge": 30.0}, vocab.RunCompleted, "s:COMPLETED c:COMPLETED adult:COMPLETED", ""},
		{"false branch", "userAge > 18", "false", map[string]any{"userAge": 12.0}, vocab.RunCompleted, "s:COMPLETED c:COMPLETED minor:COMPLETED", ""},
		{"capitalized label fails at run time", "userAge > 18", "False", map[string]any{"userAge": 12.0}, vocab.RunFailed, "s:COMPLETED c:COMPLETED",
			"condition 'c' has an outgoing edge 'e3' labeled \"False\"; condition edges must be labeled exactly 'true' or 'false'"},
		{"missing label fails at run time", "userAge > 18", "", map[string]any{"userAge": 30.0}, vocab.RunFailed, "s:COMPLETED c:COMPLETED",
			"condition 'c' has an outgoing edge 'e3' with no label; condition edges must be labeled exactly 'true' or 'false'"},
		{"missing variable is an error, not false", "userAge > 18", "false", map[string]any{}, vocab.RunFailed, "s:COMPLETED c:FAILED",
			`expression "userAge > 18": variable "userAge" is not set`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := gdoc([]string{nd("s", "start", `{}`), nd("c", "condition", `{"expression":`+quote(tc.expr)+`}`), say("adult", "adult"), say("minor", "minor")},
				[]string{ed("e1", "s", "c", ""), ed("e2", "c", "adult", "true"), ed("e3", "c", "minor", tc.falseLabel)})
			res := newHarness().run(t, doc, engine.Input{Vars: tc.vars})
			if res.Status != tc.status || path(res) != tc.path || res.Error != tc.err {
				t.Fatalf("status %s, trace %s, error %q", res.Status, path(res), res.Error)
			}
		})
	}
}

func TestRouterRouting(t *testing.T) {
	t.Parallel()
	base := func(cfg string) string {
		return gdoc([]string{nd("s", "start", `{}`), nd("d", "router", cfg), say("a", "A"), say("b", "B"), say("fb", "fallback")},
			[]string{ed("e1", "s", "d", ""), ed("e2", "d", "a", "order_status"), ed("e3", "d", "b", "2"), ed("e4", "d", "a", "true"), ed("e5", "d", "fb", "other")})
	}
	withDefault := base(`{"variable":"intent","defaultTarget":"fb"}`)
	cases := []struct {
		name, doc string
		vars      map[string]any
		status    string
		reply     string
	}{
		{"plain string equality", withDefault, map[string]any{"intent": "order_status"}, vocab.RunCompleted, "A"},
		{"case matters", withDefault, map[string]any{"intent": "Order_Status"}, vocab.RunCompleted, "fallback"},
		{"numbers match their shortest form", withDefault, map[string]any{"intent": 2.0}, vocab.RunCompleted, "B"},
		{"booleans match true/false", withDefault, map[string]any{"intent": true}, vocab.RunCompleted, "A"},
		{"unset variable goes to default", withDefault, map[string]any{}, vocab.RunCompleted, "fallback"},
		{"object value goes to default", withDefault, map[string]any{"intent": map[string]any{"x": 1.0}}, vocab.RunCompleted, "fallback"},
		{"nested path", base(`{"variable":"cls.intent","defaultTarget":"fb"}`), map[string]any{"cls": map[string]any{"intent": "2"}}, vocab.RunCompleted, "B"},
		{"no match and no default fails", base(`{"variable":"intent"}`), map[string]any{"intent": "refund"}, vocab.RunFailed, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := newHarness().run(t, tc.doc, engine.Input{Vars: tc.vars})
			if res.Status != tc.status {
				t.Fatalf("status %s (%s): %s", res.Status, res.Error, path(res))
			}
			if tc.status == vocab.RunFailed {
				if res.Error != `router 'd' has no edge labeled "refund" and no defaultTarget` || res.ErrorCode != engine.ErrorRouting {
					t.Fatalf("error %s: %q", res.ErrorCode, res.Error)
				}
				return
			}
			if got := texts(res); strings.Join(got, "|") != tc.reply {
				t.Fatalf("replies %q, want %q", got, tc.reply)
			}
		})
	}
}

func TestSwitchRouting(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`),
		nd("w", "switch", `{"cases":[{"label":"large","expression":"amount > 1000"},{"label":"gold","expression":"tier == \"gold\""}]}`),
		say("l", "large"), say("g", "gold"), say("d", "default")},
		[]string{ed("e1", "s", "w", ""), ed("e2", "w", "l", "large"), ed("e3", "w", "g", "gold"), ed("e4", "w", "d", "default")})
	cases := []struct {
		vars  map[string]any
		reply string
	}{
		{map[string]any{"amount": 5000.0, "tier": "gold"}, "large"}, // first true case wins
		{map[string]any{"amount": 10.0, "tier": "gold"}, "gold"},
		{map[string]any{"amount": 10.0, "tier": "silver"}, "default"},
	}
	for _, tc := range cases {
		res := newHarness().run(t, doc, engine.Input{Vars: tc.vars})
		if got := texts(res); res.Status != vocab.RunCompleted || len(got) != 1 || got[0] != tc.reply {
			t.Errorf("vars %v: status %s, replies %q, want %q", tc.vars, res.Status, got, tc.reply)
		}
	}
}

// Unlabelled edges are followed unconditionally, in document order.
func TestFanOutOrderIsDeterministic(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), say("c", "c"), say("a", "a"), say("b", "b"), say("a2", "a2")},
		[]string{ed("e1", "s", "c", ""), ed("e2", "s", "a", "whatever"), ed("e3", "s", "b", ""), ed("e4", "a", "a2", "")})
	for i := 0; i < 20; i++ {
		res := newHarness().run(t, doc, engine.Input{})
		if got := strings.Join(texts(res), ","); got != "c,a,b,a2" {
			t.Fatalf("order %s", got)
		}
	}
}

func TestEndSessionStopsTheRun(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), nd("end", "end_session", `{}`), say("a", "queued before end"), say("b", "after end")},
		[]string{ed("e1", "s", "end", ""), ed("e2", "s", "a", ""), ed("e3", "end", "b", "")})
	res := newHarness().run(t, doc, engine.Input{})
	if res.Status != vocab.RunCompleted || path(res) != "s:COMPLETED end:COMPLETED" || !res.SessionEnded {
		t.Fatalf("status %s: %s", res.Status, path(res))
	}
}

func quote(s string) string {
	b := strings.Builder{}
	b.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
