package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
)

func nd(id, typ, cfg string) string {
	return fmt.Sprintf(`{"id":%q,"type":%q,"label":%q,"config":%s}`, id, typ, id, cfg)
}

func ed(id, src, dst, label string) string {
	if label == "" {
		return fmt.Sprintf(`{"id":%q,"source":%q,"target":%q}`, id, src, dst)
	}
	return fmt.Sprintf(`{"id":%q,"source":%q,"target":%q,"label":%q}`, id, src, dst, label)
}

func say(id, text string, extra ...string) string {
	return nd(id, "response", `{"messageTemplate":`+fmt.Sprintf("%q", text)+strings.Join(extra, "")+`}`)
}

func gdoc(nodes, edges []string) string {
	return `{"nodes":[` + strings.Join(nodes, ",") + `],"edges":[` + strings.Join(edges, ",") + `]}`
}

type harness struct {
	reg   *node.Registry
	clock *clock.Fake
	lim   engine.Limits
}

func newHarness() *harness {
	return &harness{reg: node.Default.Clone(), clock: clock.NewFake(time.Date(2026, 9, 21, 9, 14, 3, 128e6, time.UTC))}
}

func (h *harness) compile(t testing.TB, src string) *engine.Plan {
	t.Helper()
	g, err := graph.Decode([]byte(src))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	p, err := engine.Compile(g, h.reg)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return p
}

func (h *harness) run(t *testing.T, src string, in engine.Input) *engine.Result {
	t.Helper()
	eng, err := engine.New(engine.Options{Clock: h.clock, Limits: h.lim})
	if err != nil {
		t.Fatal(err)
	}
	in.Mock = true
	return eng.Run(context.Background(), h.compile(t, src), in)
}

// path renders a trace as "id:STATUS" entries.
func path(res *engine.Result) string {
	parts := make([]string, len(res.NodeTrace))
	for i, r := range res.NodeTrace {
		parts[i] = r.NodeID + ":" + r.Status
	}
	return strings.Join(parts, " ")
}

func texts(res *engine.Result) []string {
	out := make([]string, len(res.Messages))
	for i, m := range res.Messages {
		out[i] = m.Text
	}
	return out
}

// stub registers a test-only node type whose executor is fn.
func (h *harness) stub(t *testing.T, typ string, failureEdges bool, fn node.ExecutorFunc) {
	t.Helper()
	// A stubbed start is still the graph's entry.
	old, _ := h.reg.Lookup(typ)
	err := h.reg.Replace(&node.Spec{Type: typ, Routing: node.RouteAll, FailureEdges: failureEdges, Entry: old != nil && old.Entry,
		Build: func(node.BuildInput) (node.Executor, error) { return fn, nil }})
	if err != nil {
		t.Fatal(err)
	}
}
