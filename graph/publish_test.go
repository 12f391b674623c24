package graph_test

import (
	"strings"
	"testing"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
)

func TestPublishChecks(t *testing.T) {
	t.Parallel()
	r := func(id string) string { return n(id, "response", `{"messageTemplate":"hi"}`) }
	cases := []struct {
		name  string
		doc   string
		want  []string
		codes []string
	}{
		{"valid", doc([]string{n("s", "start", `{}`), r("a")}, []string{e("e1", "s", "a", "")}), nil, nil},
		{"no start", doc([]string{r("a")}, nil),
			[]string{"Workflow has no start node; it needs exactly one."}, []string{graph.CodeStartNode}},
		{"two starts", doc([]string{n("s1", "start", `{}`), n("s2", "start", `{}`)}, nil),
			[]string{`Workflow has 2 start nodes ("s1", "s2"); it needs exactly one.`}, []string{graph.CodeStartNode}},
		{"edge to a missing node", doc([]string{n("s", "start", `{}`)}, []string{e("e1", "s", "ghost", "")}),
			[]string{`Edge "e1" references target node "ghost", which does not exist.`}, []string{graph.CodeDanglingEdge}},
		{"edge from a missing node", doc([]string{n("s", "start", `{}`), r("a")}, []string{e("e1", "s", "a", ""), e("e2", "ghost", "a", "")}),
			[]string{`Edge "e2" references source node "ghost", which does not exist.`}, []string{graph.CodeDanglingEdge}},
		{"duplicate node id", doc([]string{n("s", "start", `{}`), r("a"), r("a")}, []string{e("e1", "s", "a", "")}),
			[]string{`Two nodes share the id "a".`}, []string{graph.CodeDuplicateID}},
		{"duplicate edge id", doc([]string{n("s", "start", `{}`), r("a")}, []string{e("e1", "s", "a", ""), e("e1", "s", "a", "")}),
			[]string{`Two edges share the id "e1".`}, []string{graph.CodeDuplicateID}},
		{"disconnected node", doc([]string{n("s", "start", `{}`), r("a"), r("lonely")}, []string{e("e1", "s", "a", "")}),
			[]string{`Node "lonely" has no path from the start node; it is disconnected from the rest of the graph.`}, []string{graph.CodeUnreachable}},
		{"reachable through defaultTarget only", doc([]string{n("s", "start", `{}`), n("d", "router", `{"variable":"v","defaultTarget":"fb"}`), r("fb")},
			[]string{e("e1", "s", "d", "")}), nil, nil},
		{"defaultTarget to a missing node", doc([]string{n("s", "start", `{}`), n("d", "router", `{"variable":"v","defaultTarget":"nope"}`)},
			[]string{e("e1", "s", "d", "")}),
			[]string{`Node "d" has defaultTarget "nope", which is not a node of this workflow.`}, []string{graph.CodeDanglingEdge}},
		{"llm without promptTemplate", doc([]string{n("s", "start", `{}`), n("l", "llm", `{"outputVar":"o"}`)}, []string{e("e1", "s", "l", "")}),
			[]string{`Node "l" (llm) is missing the required config field "promptTemplate".`}, []string{graph.CodeRequiredField}},
		{"failure without success", doc([]string{n("s", "start", `{}`), n("a", "action", `{"customActionId":1}`), r("sorry")},
			[]string{e("e1", "s", "a", ""), e("e2", "a", "sorry", "failure")}),
			[]string{`Node "a" has an edge labeled 'failure' but none labeled 'success'; failure routing needs both.`}, []string{graph.CodeFailureWithoutSuccess}},
		{"failure without success on pdf_export", doc([]string{n("s", "start", `{}`), n("p", "pdf_export", `{"sectionsVar":"x","layout":"slides","outputVar":"o"}`), r("sorry")},
			[]string{e("e1", "s", "p", ""), e("e2", "p", "sorry", "failure")}),
			[]string{`Node "p" has an edge labeled 'failure' but none labeled 'success'; failure routing needs both.`}, []string{graph.CodeFailureWithoutSuccess}},
		{"failure label on a response is not a publish error", doc([]string{n("s", "start", `{}`), r("a"), r("b")},
			[]string{e("e1", "s", "a", ""), e("e2", "a", "b", "failure")}), nil, nil},
		{"switch valid", doc([]string{n("s", "start", `{}`), n("w", "switch", `{"cases":[{"label":"big","expression":"amount > 1000"},{"label":"gold","expression":"tier == \"gold\""}]}`), r("a"), r("b"), r("c")},
			[]string{e("e1", "s", "w", ""), e("e2", "w", "a", "big"), e("e3", "w", "b", "gold"), e("e4", "w", "c", "default")}), nil, nil},
		{"switch missing, repeated and extra labels", doc([]string{n("s", "start", `{}`), n("w", "switch", `{"cases":[{"label":"big","expression":"amount > 1000"},{"label":"gold","expression":"true"}]}`), r("a"), r("b")},
			[]string{e("e1", "s", "w", ""), e("e2", "w", "a", "big"), e("e3", "w", "b", "big"), e("e4", "w", "b", "silver"), e("e5", "w", "a", "")}),
			[]string{
				`Switch node "w" has 2 edges labeled "big"; each label needs exactly one edge.`,
				`Switch node "w" has no edge labeled "gold" for its case "gold".`,
				`Switch node "w" has no edge labeled 'default'; every switch needs exactly one, for when no case is true.`,
				`Switch node "w" has an edge "e4" labeled "silver", which is not one of its cases or 'default'.`,
				`Switch node "w" has an unlabeled edge "e5"; each edge of a switch is labeled with a case or 'default'.`,
			}, nil},
		{"switch loop_exhausted is allowed", doc([]string{n("s", "start", `{}`), n("w", "switch", `{"cases":[{"label":"a","expression":"true"}]}`), r("a")},
			[]string{e("e1", "s", "w", ""), e("e2", "w", "a", "a"), e("e3", "w", "a", "default"), e("e4", "w", "a", "loop_exhausted")}), nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			probs := graph.CheckPublish(mustDecode(t, tc.doc), node.Default)
			if got := messages(probs); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("publish messages\n got: %q\nwant: %q", got, tc.want)
			}
			for i, c := range tc.codes {
				if probs[i].Code != c {
					t.Errorf("problem %d code = %s, want %s", i, probs[i].Code, c)
				}
			}
		})
	}
}

func TestPublishIncludesSaveChecks(t *testing.T) {
	t.Parallel()
	g := mustDecode(t, doc([]string{n("s", "start", `{}`), n("x", "response", `{"messageTemplate":"a","maxVisits":400}`)}, []string{e("e1", "s", "x", "")}))
	got := messages(graph.CheckPublish(g, node.Default))
	if len(got) != 1 || got[0] != `Node "x" has maxVisits 400, exceeding the maximum of 100.` {
		t.Fatalf("got %q", got)
	}
}

func TestSeedExamplesPublish(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"../examples/order-status.json", "../examples/bounded-retry.json", "../examples/shipping-await-reply.json"} {
		g := mustDecode(t, string(readFile(t, f)))
		if errs := graph.CheckPublish(g, node.Default); len(errs) > 0 {
			t.Errorf("%s: %v", f, errs)
		}
	}
}
