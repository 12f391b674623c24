package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/node"
)

// stallSpec is a node type that waits for the test to release it, or for
// its run's context to end: a specialist that takes too long.
func stallSpec(release <-chan struct{}) *node.Spec {
	return &node.Spec{Type: "stall", Summary: "Waits for the test.", Routing: node.RouteAll, Runs: node.OnServer,
		Build: func(node.BuildInput) (node.Executor, error) {
			return node.ExecutorFunc(func(ctx context.Context, x *node.Exec) (node.Outcome, error) {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return node.Outcome{}, nil
			}), nil
		}}
}

// publishedAgent creates a workflow from graph, publishes it and returns
// the id of a new agent running it.
func publishedAgent(t *testing.T, c *client.Client, name, graph string) int {
	t.Helper()
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, c, `mutation($n: String!, $g: JSON!) { createWorkflow(input: {name: $n, graph: $g}) { id } }`,
		map[string]any{"n": name, "g": json.RawMessage(graph)}, &wf)
	do(t, c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, c, `mutation($n: String!, $w: Int!) { createAgent(input: {name: $n, workflowId: $w}) { id } }`,
		map[string]any{"n": name, "w": wf.CreateWorkflow.ID}, &ag)
	return ag.CreateAgent.ID
}

// TestSubAgentDispatch: a dispatcher hands the user's message to three
// specialists at once: one answers, one fails, one takes longer than its
// timeout. The node still takes success, with each target's outcome in
// target order; the children are sessions of their own, named by their
// parent, which take no messages from outside.
func TestSubAgentDispatch(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	reg := node.Default.Clone()
	if err := reg.Add(stallSpec(release)); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Registry: reg})
	billing := publishedAgent(t, ts.c, "billing", `{"nodes":[{"id":"start","type":"start"},
		{"id":"note","type":"set_variable","config":{"assignments":[{"var":"refund","value":"{{userMessage}}"}]}},
		{"id":"say","type":"response","config":{"messageTemplate":"billing looked at: {{userMessage}}"}}],
		"edges":[{"id":"e1","source":"start","target":"note"},{"id":"e2","source":"note","target":"say"}]}`)
	broken := publishedAgent(t, ts.c, "broken", `{"nodes":[{"id":"start","type":"start"},
		{"id":"bad","type":"set_variable","config":{"assignments":[{"var":"x","from":"missing.value"}]}}],
		"edges":[{"id":"e1","source":"start","target":"bad"}]}`)
	slow := publishedAgent(t, ts.c, "slow", `{"nodes":[{"id":"start","type":"start"},{"id":"wait","type":"stall"},
		{"id":"late","type":"response","config":{"messageTemplate":"too late"}}],
		"edges":[{"id":"e1","source":"start","target":"wait"},{"id":"e2","source":"wait","target":"late"}]}`)
	dispatcher := publishedAgent(t, ts.c, "dispatcher", fmt.Sprintf(`{"nodes":[{"id":"start","type":"start"},
		{"id":"ask","type":"sub_agent","config":{"targets":[{"agentId":%d,"messageTemplate":"refund {{userMessage}}"},
			{"agentId":%d},{"agentId":%d}],"resultVar":"answers","timeoutMs":300}},
		{"id":"report","type":"response","config":{"messageTemplate":"{{#each answers}}{{agentId}}={{status}} {{/each}}| {{answers.0.messages.0}} | {{answers.0.output.refund}}"}}],
		"edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"report","label":"success"}]}`,
		billing, broken, slow))
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": dispatcher}, &s)
	out := send(t, ts, s.StartSession.ID, "order 42")
	msgs := out.SendMessage.Messages
	want := fmt.Sprintf("%d=ok %d=error %d=timeout | billing looked at: refund order 42 | refund order 42", billing, broken, slow)
	if len(msgs) != 1 || msgs[0].Text != want {
		t.Fatalf("the dispatcher said %+v, want %q", msgs, want)
	}
	if r := out.SendMessage.Runs[0]; r.Status != "COMPLETED" {
		t.Fatalf("the dispatcher's run: %+v", r)
	}

	var list struct {
		Sessions []struct {
			ID              int
			AgentID         int
			ParentSessionID *int
		}
	}
	do(t, ts.c, `{ sessions(first: 20) { id agentId parentSessionId } }`, nil, &list)
	children := map[int]int{}
	for _, ss := range list.Sessions {
		if ss.ParentSessionID != nil && *ss.ParentSessionID == s.StartSession.ID {
			children[ss.AgentID] = ss.ID
		}
	}
	if len(children) != 3 {
		t.Fatalf("child sessions of %d: %+v", s.StartSession.ID, list.Sessions)
	}
	err := ts.c.Do(context.Background(), sendMessage, map[string]any{"s": children[billing], "t": "hello"}, nil)
	if err == nil || !strings.Contains(err.Error(), "child session") {
		t.Errorf("a message to a child session: %v, want it refused", err)
	}
}

// Seed 000: await_reply is "not usable inside a sub_agent dispatch ... The
// node refuses up front and the parent records it as an error for that
// target."
func TestSubAgentTargetThatAsksIsAnError(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	asker := publishedAgent(t, ts.c, "asker", `{"nodes":[{"id":"start","type":"start"},
		{"id":"q","type":"await_reply","config":{"promptTemplate":"Which one?","saveAs":"pick"}},
		{"id":"done","type":"response","config":{"messageTemplate":"thanks"}}],
		"edges":[{"id":"e1","source":"start","target":"q"},{"id":"e2","source":"q","target":"done","label":"answered"}]}`)
	dispatcher := publishedAgent(t, ts.c, "dispatcher", fmt.Sprintf(`{"nodes":[{"id":"start","type":"start"},
		{"id":"ask","type":"sub_agent","config":{"targets":[{"agentId":%d}],"resultVar":"answers"}},
		{"id":"report","type":"response","config":{"messageTemplate":"{{answers.0.status}}: {{answers.0.error}}"}}],
		"edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"report"}]}`, asker))
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": dispatcher}, &s)
	msgs := send(t, ts, s.StartSession.ID, "hi").SendMessage.Messages
	if len(msgs) != 1 || !strings.HasPrefix(msgs[0].Text, "error: ") || !strings.Contains(msgs[0].Text, "await_reply cannot run inside a sub_agent dispatch") {
		t.Fatalf("the dispatcher said %+v", msgs)
	}
	if p := pendingCount(t, ts); p != 0 {
		t.Errorf("%d questions left open by the child", p)
	}
}

func pendingCount(t *testing.T, ts *testServer) int {
	t.Helper()
	var p struct{ PendingAwaitReplies []struct{ NodeID string } }
	do(t, ts.c, `{ pendingAwaitReplies { nodeId } }`, nil, &p)
	return len(p.PendingAwaitReplies)
}
