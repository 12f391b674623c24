package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
)

// BenchmarkEngineOverheadPerNode measures what the engine itself costs per
// dispatch: a chain of 100 nodes whose executor does nothing, so templates
// and expressions are left out.
func BenchmarkEngineOverheadPerNode(b *testing.B) {
	h := newHarness()
	if err := h.reg.Replace(&node.Spec{Type: "noop", Routing: node.RouteAll,
		Build: func(node.BuildInput) (node.Executor, error) {
			return node.ExecutorFunc(func(context.Context, *node.Exec) (node.Outcome, error) { return node.Outcome{}, nil }), nil
		}}); err != nil {
		b.Fatal(err)
	}
	const n = 100
	nodes := []string{nd("s", "start", `{}`)}
	edges := []string{}
	prev := "s"
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("n%d", i)
		nodes = append(nodes, nd(id, "noop", `{}`))
		edges = append(edges, ed("e"+id, prev, id, ""))
		prev = id
	}
	plan := h.compile(b, gdoc(nodes, edges))
	eng, _ := engine.New(engine.Options{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := eng.Run(context.Background(), plan, engine.Input{Vars: map[string]any{}})
		if res.Executions != n+1 {
			b.Fatal(strings.Join([]string{res.Status, res.Error}, ": "))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n+1), "ns/node")
}
