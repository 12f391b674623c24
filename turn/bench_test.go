package turn_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// workload loads a benchmark graph shared with the peers we measure against.
func workload(tb testing.TB, name string) *engine.Plan {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "bench", "workloads", name))
	if err != nil {
		tb.Fatalf("benchmark workload: %v", err)
	}
	g, err := graph.Decode(data)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := engine.Compile(g, node.Default)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// benchTurns runs one turn per iteration on a fresh session, as the peers'
// harness does ("Fresh session/thread id for every turn").
func benchTurns(b *testing.B, name, message, wantReply string, wantExecutions int) {
	eng, _ := engine.New(engine.Options{})
	r := &turn.Runner{Engine: eng, Plan: workload(b, name), Mock: true}
	check := r.Send(context.Background(), &turn.Session{}, message)
	res := check.Runs[0]
	if res.Status != vocab.RunCompleted || res.Executions != wantExecutions || check.Messages[len(check.Messages)-1].Text != wantReply {
		b.Fatalf("workload %s: status %s, %d executions, messages %+v", name, res.Status, res.Executions, check.Messages)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Send(context.Background(), &turn.Session{}, message)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(wantExecutions), "ns/node")
}

// BenchmarkLinear10Turn is the peers' W1: 8 set_variable steps, a condition
// and a response (11 executions with start), in memory.
func BenchmarkLinear10Turn(b *testing.B) {
	benchTurns(b, "linear-10.json", "hello", "Done 8 for hello", 11)
}

// BenchmarkBoundedRetryTurn is W3: the seed's bounded retry with the partner
// mocked down, 8 executions.
func BenchmarkBoundedRetryTurn(b *testing.B) {
	benchTurns(b, "bounded-retry.json", "file my claim",
		"I couldn't reach our claims system after a few tries. I've flagged this for a colleague, who will follow up by email today.", 8)
}

// BenchmarkLinear10Engine is the same turn without the turn layer: the run
// alone, from a prepared context, to separate engine cost from turn facts.
func BenchmarkLinear10Engine(b *testing.B) {
	eng, _ := engine.New(engine.Options{})
	p := workload(b, "linear-10.json")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res := eng.Run(context.Background(), p, engine.Input{Vars: map[string]any{"userMessage": "hello"}})
		if res.Executions != 11 {
			b.Fatal(res.Status)
		}
	}
}
