package server

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wetel/wetel/node"
)

// TestGracefulShutdown stops the server while a turn is running: the turn
// finishes and its answer reaches the client, new requests are refused,
// and after a restart on the same data the run is COMPLETED and the
// transcript whole.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	reg := node.Default.Clone()
	if err := reg.Add(&node.Spec{Type: "test_gate", Summary: "Waits for the test.", Routing: node.RouteAll,
		Build: func(node.BuildInput) (node.Executor, error) {
			return node.ExecutorFunc(func(ctx context.Context, x *node.Exec) (node.Outcome, error) {
				close(entered)
				<-release
				return node.Outcome{}, nil
			}), nil
		}}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir, Registry: reg})
	graph := `{"nodes":[{"id":"start","type":"start"},{"id":"gate","type":"test_gate"},
		{"id":"say","type":"response","config":{"messageTemplate":"done: {{userMessage}}"}}],
		"edges":[{"id":"e1","source":"start","target":"gate"},{"id":"e2","source":"gate","target":"say"}]}`
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "slow", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "slow", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)

	answer := make(chan turnOut, 1)
	go func() {
		var out turnOut
		err := ts.c.Do(context.Background(), sendMessage, map[string]any{"s": s.StartSession.ID, "t": "in flight"}, &out)
		if err != nil {
			t.Errorf("the turn in flight failed: %v", err)
		}
		answer <- out
	}()
	<-entered
	stopped := make(chan struct{})
	go func() { ts.stop(t); close(stopped) }()
	// Shutdown closes the listener first: new requests are soon refused,
	// while the turn in flight is still running.
	refused := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if err := ts.c.Do(context.Background(), `{ agents { id } }`, nil, nil); err != nil {
			refused = true
			break
		}
	}
	if !refused {
		t.Error("new requests were still served during shutdown")
	}
	select {
	case <-stopped:
		t.Fatal("the server stopped before the turn in flight finished")
	default:
	}
	close(release)
	out := <-answer
	if m := out.SendMessage.Messages; len(m) != 1 || m[0].Text != "done: in flight" {
		t.Fatalf("the turn in flight answered %+v", out)
	}
	<-stopped

	again := startServer(t, Config{DataDir: dir, Registry: reg})
	var runs struct{ WorkflowRuns []struct{ Status string } }
	do(t, again.c, `query($s: Int) { workflowRuns(sessionId: $s) { status } }`, map[string]any{"s": s.StartSession.ID}, &runs)
	if len(runs.WorkflowRuns) != 1 || runs.WorkflowRuns[0].Status != "COMPLETED" {
		t.Fatalf("after restart: %+v", runs)
	}
	var msgs struct{ Messages []struct{ Text string } }
	do(t, again.c, `query($s: Int!) { messages(sessionId: $s) { text } }`, map[string]any{"s": s.StartSession.ID}, &msgs)
	if len(msgs.Messages) != 2 {
		t.Fatalf("transcript after restart: %+v", msgs)
	}
}
