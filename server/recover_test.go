package server

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/wetel/wetel/node"
)

// buildBomb is a named Build, so the stack shows its frame. Building runs
// when a turn compiles the graph, outside the engine's recover, so the
// panic reaches the GraphQL resolver.
func buildBomb(node.BuildInput) (node.Executor, error) {
	panic("bomb built")
}

// TestAPanickingResolverAnswersInternalErrorAndLogsItsStack: the API says
// "internal error" and nothing more; the log has the panic, once, with
// the stack of the panicking code.
func TestAPanickingResolverAnswersInternalErrorAndLogsItsStack(t *testing.T) {
	t.Parallel()
	reg := node.Default.Clone()
	if err := reg.Replace(&node.Spec{Type: "bomb", Routing: node.RouteAll, Build: buildBomb}); err != nil {
		t.Fatal(err)
	}
	var logged lockedBuffer
	ts := startServer(t, Config{Registry: reg, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	graph := `{"nodes":[{"id":"start","type":"start"},{"id":"b","type":"bomb"}],
		"edges":[{"id":"e1","source":"start","target":"b"}]}`
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "bomb", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "bomb", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)

	es := wantCode(t, ts.c, "INTERNAL", sendMessage, map[string]any{"s": s.StartSession.ID, "t": "hi"})
	if answer := fmt.Sprintf("%+v", es); es[0].Message != "internal error" || strings.Contains(answer, "buildBomb") ||
		strings.Contains(answer, "bomb built") || strings.Contains(answer, "goroutine") {
		t.Errorf("the API answered %s; want only \"internal error\"", answer)
	}
	log := logged.String()
	for _, want := range []string{`msg="resolver panicked"`, `panic="bomb built"`, "server.buildBomb(", "recover_test.go:"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if n := strings.Count(log, "bomb built"); n != 1 || strings.Contains(log, `msg="request failed"`) {
		t.Errorf("the panic was logged %d times or again as a failed request, want once:\n%s", n, log)
	}
}
