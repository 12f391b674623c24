package engine_test

import (
	"strings"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/vocab"
)

// The seed's table "What happens when the budget runs out", one row per case.
func TestVisitLimitTable(t *testing.T) {
	t.Parallel()
	fail := nd("sub", "action", `{"customActionId":1,"maxVisits":2,"mockError":{"code":"UNREACHABLE"}}`)
	note := say("note", "again", `,"maxVisits":2`)
	loop := []string{ed("e1", "s", "sub", ""), ed("e2", "sub", "ok", "success"), ed("e3", "sub", "note", "failure"), ed("e4", "note", "sub", "")}
	start, ok := nd("s", "start", `{}`), say("ok", "done")
	cases := []struct {
		name, doc, status, path, errPrefix string
	}{
		{"loop_exhausted edge: the run follows it and carries on",
			gdoc([]string{start, fail, note, ok, say("give", "giving up")}, append(loop, ed("e5", "sub", "give", "loop_exhausted"))),
			vocab.RunCompleted,
			"s:COMPLETED sub:FAILED_HANDLED note:COMPLETED sub:FAILED_HANDLED note:COMPLETED sub:VISIT_LIMIT_REACHED give:COMPLETED", ""},
		{"no escape edge and maxVisits set explicitly: the run fails",
			gdoc([]string{start, fail, note, ok}, loop),
			vocab.RunFailed,
			"s:COMPLETED sub:FAILED_HANDLED note:COMPLETED sub:FAILED_HANDLED note:COMPLETED sub:VISIT_LIMIT_REACHED",
			"WorkflowNodeVisitLimitExceededError: node 'sub' was reached again after using all 2 of its maxVisits in this run."},
		{"no escape edge and maxVisits unset: the branch stops, the rest carries on",
			gdoc([]string{start, say("a", "A"), say("b", "B"), say("join", "joined")},
				[]string{ed("e1", "s", "a", ""), ed("e2", "s", "b", ""), ed("e3", "a", "join", ""), ed("e4", "b", "join", "")}),
			vocab.RunCompleted,
			"s:COMPLETED a:COMPLETED b:COMPLETED join:COMPLETED join:VISIT_LIMIT_REACHED", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := newHarness().run(t, tc.doc, engine.Input{})
			if res.Status != tc.status || path(res) != tc.path {
				t.Fatalf("status %s, trace\n got: %s\nwant: %s", res.Status, path(res), tc.path)
			}
			if res.Error != tc.errPrefix {
				t.Errorf("run error = %q, want %q", res.Error, tc.errPrefix)
			}
			last := res.NodeTrace[len(res.NodeTrace)-1]
			for _, row := range res.NodeTrace {
				if row.Status == vocab.TraceVisitLimitReached && (row.VisitLimit == 0 || row.VisitCount != row.VisitLimit) {
					t.Errorf("refusal row without visitLimit/visitCount: %+v", row)
				}
			}
			if tc.status == vocab.RunFailed && last.Error != tc.errPrefix {
				t.Errorf("refusal row error = %q", last.Error)
			}
		})
	}
}

// "The engine follows a node's 'loop_exhausted' edge at most once per run, and
// records at most one refusal entry per node"; coming back after the escape
// fails the run when the node declared maxVisits.
func TestLoopExhaustedAtMostOnce(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), say("a", "tick", `,"maxVisits":2`), say("b", "tock", `,"maxVisits":5`)},
		[]string{ed("e1", "s", "a", ""), ed("e2", "a", "b", ""), ed("e3", "b", "a", ""), ed("e4", "a", "b", "loop_exhausted")})
	res := newHarness().run(t, doc, engine.Input{})
	want := "s:COMPLETED a:COMPLETED b:COMPLETED a:COMPLETED b:COMPLETED a:VISIT_LIMIT_REACHED b:COMPLETED"
	if res.Status != vocab.RunFailed || path(res) != want {
		t.Fatalf("status %s\n got: %s\nwant: %s", res.Status, path(res), want)
	}
	if res.ErrorCode != engine.ErrorVisitLimit || !strings.HasPrefix(res.Error, "WorkflowNodeVisitLimitExceededError: node 'a'") {
		t.Errorf("error %s: %s", res.ErrorCode, res.Error)
	}
}

// Without maxVisits declared, a second refusal after the escape only stops the branch.
func TestLoopExhaustedThenDefaultStops(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), say("a", "tick"), say("b", "tock", `,"maxVisits":3`)},
		[]string{ed("e1", "s", "a", ""), ed("e2", "a", "b", ""), ed("e3", "b", "a", ""), ed("e4", "a", "b", "loop_exhausted")})
	res := newHarness().run(t, doc, engine.Input{})
	want := "s:COMPLETED a:COMPLETED b:COMPLETED a:VISIT_LIMIT_REACHED b:COMPLETED"
	if res.Status != vocab.RunCompleted || path(res) != want {
		t.Fatalf("status %s (%s)\n got: %s\nwant: %s", res.Status, res.Error, path(res), want)
	}
}

// Many nodes converging on one exhausted node write one entry, not one per edge.
func TestOneRefusalEntryPerNode(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), say("a", "a"), say("b", "b"), say("c", "c"), say("j", "j")},
		[]string{ed("e1", "s", "a", ""), ed("e2", "s", "b", ""), ed("e3", "s", "c", ""), ed("e4", "a", "j", ""), ed("e5", "b", "j", ""), ed("e6", "c", "j", "")})
	res := newHarness().run(t, doc, engine.Input{})
	if got := strings.Count(path(res), "j:VISIT_LIMIT_REACHED"); got != 1 || res.Status != vocab.RunCompleted {
		t.Fatalf("%d refusal entries, status %s: %s", got, res.Status, path(res))
	}
}

// "maxVisits was set explicitly" includes writing the default value 1.
func TestExplicitMaxVisitsOneFails(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), say("a", "a"), say("b", "b"), say("j", "j", `,"maxVisits":1`)},
		[]string{ed("e1", "s", "a", ""), ed("e2", "s", "b", ""), ed("e3", "a", "j", ""), ed("e4", "b", "j", "")})
	res := newHarness().run(t, doc, engine.Input{})
	if res.Status != vocab.RunFailed || res.ErrorCode != engine.ErrorVisitLimit {
		t.Fatalf("status %s %s: %s", res.Status, res.ErrorCode, path(res))
	}
}
