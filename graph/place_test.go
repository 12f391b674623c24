package graph_test

import (
	"testing"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
)

// NODE_TYPE_UNAVAILABLE names a node whose type does not run where the
// graph is checked for, in that place's words; without a place, Diagnose
// says nothing about it.
func TestNodeTypeUnavailable(t *testing.T) {
	t.Parallel()
	g := mustDecode(t, doc([]string{n("s", "start", `{}`),
		n("l", "sub_agent", `{"targets":[{"agentId":2}],"resultVar":"o","mockResponse":[]}`),
		n("k", "knowledge_search", `{"knowledgeBaseId":1,"queryTemplate":"q","outputVar":"p"}`),
		n("r", "response", `{"messageTemplate":"hi"}`)},
		[]string{e("e1", "s", "l", ""), e("e2", "l", "k", ""), e("e3", "k", "r", "")}))
	cases := []struct {
		name string
		opts []graph.Option
		want []graph.Problem
	}{
		{"no place", nil, nil},
		{"on the server", []graph.Option{graph.At(node.OnServer)}, []graph.Problem{
			{Code: graph.DiagNodeTypeUnavailable, NodeID: "k", Field: "type", Message: `Node "k": knowledge_search nodes are not available on this server, so every run that reaches the node fails there; the type has no mock mode to stand in for it.`},
		}},
		{"offline", []graph.Option{graph.At(node.Offline)}, []graph.Problem{
			{Code: graph.DiagNodeTypeUnavailable, NodeID: "l", Field: "type", Message: `Node "l": sub_agent nodes are not available offline, so a live run fails there; run it in mock mode, with a mockResponse or mockError on the node.`},
			{Code: graph.DiagNodeTypeUnavailable, NodeID: "k", Field: "type", Message: `Node "k": knowledge_search nodes are not available offline, so every run that reaches the node fails there; the type has no mock mode to stand in for it.`},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []graph.Problem
			for _, p := range graph.Diagnose(g, node.Default, tc.opts...) {
				if p.Code == graph.DiagNodeTypeUnavailable {
					got = append(got, p)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d, want %d:\n%s", len(got), len(tc.want), dump(got))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("diagnostic %d\n got: %+v\nwant: %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}
