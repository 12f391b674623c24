package graph_test

import (
	"strings"
	"testing"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/awaitreply"
)

func TestDiagnostics(t *testing.T) {
	t.Parallel()
	r := func(id string) string { return n(id, "response", `{"messageTemplate":"hi"}`) }
	act := func(id, extra string) string { return n(id, "action", `{"customActionId":1`+extra+`}`) }
	cases := []struct {
		name string
		doc  string
		want []graph.Problem // code, node, message
	}{
		{"clean graph has none", doc([]string{n("s", "start", `{}`), act("a", ""), r("ok"), r("bad")},
			[]string{e("e1", "s", "a", ""), e("e2", "a", "ok", "success"), e("e3", "a", "bad", "failure")}), nil},
		{"success without failure", doc([]string{n("s", "start", `{}`), act("a", ""), r("ok")},
			[]string{e("e1", "s", "a", ""), e("e2", "a", "ok", "success")}),
			[]graph.Problem{{Code: graph.DiagSuccessWithoutFailure, NodeID: "a", Message: `Node "a" has a 'success' edge but no 'failure' edge, so a failure still fails the whole run.`}}},
		{"failure edge on a response", doc([]string{n("s", "start", `{}`), r("a"), r("b")},
			[]string{e("e1", "s", "a", ""), e("e2", "a", "b", "failure")}),
			[]graph.Problem{{Code: graph.DiagFailureEdgeUnroutable, NodeID: "a", EdgeID: "e2", Message: `Edge "e2" out of response node "a" is labeled "failure", but response nodes have no failure routing: the edge is followed on every run like any other, and a failure still fails the run.`}}},
		{"failure edge on a condition", doc([]string{n("s", "start", `{}`), n("c", "condition", `{"expression":"true"}`), r("a"), r("b")},
			[]string{e("e1", "s", "c", ""), e("e2", "c", "a", "true"), e("e3", "c", "b", "false"), e("e4", "c", "b", "failure")}),
			[]graph.Problem{{Code: graph.DiagFailureEdgeUnroutable, NodeID: "c", EdgeID: "e4", Message: `Edge "e4" out of condition node "c" is labeled "failure", but a condition follows only its own branch labels, so it is never taken as a failure route.`}}},
		{"router failure label is an ordinary value, but no fallback", doc([]string{n("s", "start", `{}`), n("d", "router", `{"variable":"v"}`), r("a")},
			[]string{e("e1", "s", "d", ""), e("e2", "d", "a", "failure")}),
			[]graph.Problem{{Code: graph.DiagRouterNoFallback, NodeID: "d", Message: `Router "d" has no defaultTarget: a value that matches none of its edge labels fails the run.`}}},
		{"unlabeled router edge", doc([]string{n("s", "start", `{}`), n("d", "router", `{"variable":"v","defaultTarget":"a"}`), r("a"), r("b")},
			[]string{e("e1", "s", "d", ""), e("e2", "d", "b", "")}),
			[]graph.Problem{{Code: graph.DiagBranchNeverTaken, NodeID: "d", EdgeID: "e2", Message: `Edge "e2" out of router "d" has no label, so no value of its variable can select it.`}}},
		{"condition mislabel", doc([]string{n("s", "start", `{}`), n("c", "condition", `{"expression":"true"}`), r("a"), r("b")},
			[]string{e("e1", "s", "c", ""), e("e2", "c", "a", "true"), e("e3", "c", "b", "False")}),
			[]graph.Problem{
				{Code: graph.DiagConditionEdgeLabel, NodeID: "c", EdgeID: "e3", Message: `Edge "e3" out of condition "c" is labeled "False"; condition edges must be labeled exactly 'true' or 'false', and this one fails the run when the condition is evaluated.`},
				{Code: graph.DiagConditionMissingOutcome, NodeID: "c", Message: `Condition "c" has no edge labeled 'false': when the expression is false, that branch stops there.`},
			}},
		{"other edges of a success/failure node", doc([]string{n("s", "start", `{}`), act("a", ""), r("ok"), r("bad"), r("also")},
			[]string{e("e1", "s", "a", ""), e("e2", "a", "ok", "success"), e("e3", "a", "bad", "failure"), e("e4", "a", "also", "")}),
			[]graph.Problem{{Code: graph.DiagBranchNeverTaken, NodeID: "a", EdgeID: "e4", Message: `Edge "e4" is never taken: node "a" routes by its 'success' and 'failure' edges, and never follows its other outgoing edges.`}}},
		{"unanswered in free_text mode", doc([]string{n("s", "start", `{}`), n("q", "await_reply", `{"promptTemplate":"?","saveAs":"x"}`), r("a"), r("b")},
			[]string{e("e1", "s", "q", ""), e("e2", "q", "a", "answered"), e("e3", "q", "b", "unanswered")}),
			[]graph.Problem{{Code: graph.DiagBranchNeverTaken, NodeID: "q", EdgeID: "e3", Message: `Edge "e3" out of await_reply node "q" is labeled "unanswered", which is not one of its outcomes (answered).`}}},
		{"edge out of end_session", doc([]string{n("s", "start", `{}`), n("end", "end_session", `{}`), r("a")},
			[]string{e("e1", "s", "end", ""), e("e2", "end", "a", "")}),
			[]graph.Problem{{Code: graph.DiagBranchNeverTaken, NodeID: "end", EdgeID: "e2", Message: `Edge "e2" is never taken: the run ends at end_session node "end".`}}},
		{"retry not idempotent", doc([]string{n("s", "start", `{}`), act("a", `,"retry":{"maxAttempts":3,"on":["UNREACHABLE","TIMEOUT","UPSTREAM_ERROR"]}`)},
			[]string{e("e1", "s", "a", "")}),
			[]graph.Problem{{Code: graph.DiagRetryNotIdempotent, NodeID: "a", Field: "retry.on", Message: `Node "a" lists TIMEOUT and UPSTREAM_ERROR in retry.on, but a request that timed out or got a 5xx may have reached the service, so it is resent only when the node is idempotent (retry.idempotent: true, a GET, or an Idempotency-Key header).`}}},
		{"retry idempotent by GET", doc([]string{n("s", "start", `{}`), n("w", "webhook", `{"url":"https://x.example","method":"GET","retry":{"maxAttempts":3,"on":["TIMEOUT"]}}`)},
			[]string{e("e1", "s", "w", "")}), nil},
		{"retry idempotent by header", doc([]string{n("s", "start", `{}`), n("w", "webhook", `{"url":"https://x.example","headers":{"Idempotency-Key":"{{sessionId}}"},"retry":{"maxAttempts":3,"on":["TIMEOUT"]}}`)},
			[]string{e("e1", "s", "w", "")}), nil},
		{"ignored options", doc([]string{n("s", "start", `{}`), n("q", "await_reply", `{"promptTemplate":"?","saveAs":"x","optionsFrom":"list"}`), n("end", "end_session", `{"confirmationTemplate":"sure?"}`)},
			[]string{e("e1", "s", "q", ""), e("e2", "q", "end", "answered")}),
			[]graph.Problem{
				{Code: graph.DiagIgnoredOption, NodeID: "q", Field: "optionsFrom", Message: `Node "q": optionsFrom is ignored: the node is in free_text mode, where every reply is the answer.`},
				{Code: graph.DiagIgnoredOption, NodeID: "end", Field: "confirmationTemplate", Message: `Node "end": confirmationTemplate is ignored: requireConfirmation is not true.`},
			}},
		{"expiry clamped", doc([]string{n("s", "start", `{}`), n("q", "await_reply", `{"promptTemplate":"?","saveAs":"x","expiresAfterSeconds":864000}`), r("a")},
			[]string{e("e1", "s", "q", ""), e("e2", "q", "a", "answered")}),
			[]graph.Problem{{Code: graph.DiagIgnoredOption, NodeID: "q", Field: "expiresAfterSeconds", Message: `Node "q": expiresAfterSeconds 864000 is clamped to the ceiling of 7 days (604800 seconds).`}}},
		{"loop whose maxVisits disagree", doc([]string{n("s", "start", `{}`), act("sub", `,"maxVisits":3`), n("note", "response", `{"messageTemplate":"again"}`), r("ok"), r("give")},
			[]string{e("e1", "s", "sub", ""), e("e2", "sub", "ok", "success"), e("e3", "sub", "note", "failure"), e("e4", "note", "sub", ""), e("e5", "sub", "give", "loop_exhausted")}),
			[]graph.Problem{{Code: graph.DiagLoopVisitsDisagree, NodeID: "note", Field: "maxVisits", Message: `Nodes "sub", "note" form a loop with different maxVisits (1 to 3); the smallest one, on "note" (1), is what actually ends the loop. Give every node of the loop the same maxVisits.`}}},
		{"loop that never repeats", doc([]string{n("s", "start", `{}`), r("a"), r("b")},
			[]string{e("e1", "s", "a", ""), e("e2", "a", "b", ""), e("e3", "b", "a", "")}),
			[]graph.Problem{{Code: graph.DiagLoopNeverRepeats, NodeID: "a", Field: "maxVisits", Message: `Nodes "a", "b" form a loop, but none raises maxVisits, so the back-edge never re-runs them: the second arrival stops that branch.`}}},
		{"a loop through await_reply is bounded by the person", doc([]string{n("s", "start", `{}`), n("q", "await_reply", `{"promptTemplate":"?","saveAs":"x"}`), r("a")},
			[]string{e("e1", "s", "q", ""), e("e2", "q", "a", "answered"), e("e3", "a", "q", "")}), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := graph.Diagnose(mustDecode(t, tc.doc), node.Default)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tc.want), dump(got))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("diagnostic %d\n got: %+v\nwant: %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestSeedBoundedRetryHasNoLoopDiagnostic(t *testing.T) {
	t.Parallel()
	g := mustDecode(t, string(readFile(t, "../examples/bounded-retry.json")))
	for _, p := range graph.Diagnose(g, node.Default) {
		if strings.HasPrefix(p.Code, "LOOP_") {
			t.Errorf("unexpected %s: %s", p.Code, p.Message)
		}
	}
}

func dump(ps []graph.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Code + " " + p.NodeID + " " + p.EdgeID + ": " + p.Message + "\n")
	}
	return b.String()
}

// Seed 000: "an unanswered branch routing back into the await_reply node
// that just asked will re-ask, once per turn, indefinitely": reported unless
// a condition (counting the attempts) gates the way back.
func TestUncountedReask(t *testing.T) {
	t.Parallel()
	r := func(id string) string { return n(id, "response", `{"messageTemplate":"hi"}`) }
	ask := n("q", "await_reply", `{"promptTemplate":"?","saveAs":"x","matchMode":"options","optionsFrom":"opts"}`)
	for _, tc := range []struct {
		name  string
		nodes []string
		edges []string
		want  bool
	}{
		{"straight back", []string{n("s", "start", `{}`), ask, r("ok"), r("again")},
			[]string{e("e1", "s", "q", ""), e("e2", "q", "ok", "answered"), e("e3", "q", "again", "unanswered"), e("e4", "again", "q", "")}, true},
		{"gated by a condition", []string{n("s", "start", `{}`), ask, r("ok"), r("again"), n("c", "condition", `{"expression":"tries < 3"}`), r("give_up")},
			[]string{e("e1", "s", "q", ""), e("e2", "q", "ok", "answered"), e("e3", "q", "c", "unanswered"),
				e("e4", "c", "again", "true"), e("e5", "c", "give_up", "false"), e("e6", "again", "q", "")}, false},
		{"no way back", []string{n("s", "start", `{}`), ask, r("ok"), r("sorry")},
			[]string{e("e1", "s", "q", ""), e("e2", "q", "ok", "answered"), e("e3", "q", "sorry", "unanswered")}, false},
	} {
		found := false
		for _, p := range graph.Diagnose(mustDecode(t, doc(tc.nodes, tc.edges)), node.Default) {
			if p.Code == awaitreply.DiagUncountedReask && p.NodeID == "q" {
				found = true
			}
		}
		if found != tc.want {
			t.Errorf("%s: reported %v, want %v", tc.name, found, tc.want)
		}
	}
}
