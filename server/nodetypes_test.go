package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// A graph with a knowledge_search node, which this build cannot run.
const unavailableGraph = `{"nodes":[{"id":"start","type":"start"},
 {"id":"classify","type":"knowledge_search","config":{"knowledgeBaseId":1,"queryTemplate":"q","outputVar":"intent"}},
 {"id":"hi","type":"response","config":{"messageTemplate":"ok"}}],
 "edges":[{"id":"e1","source":"start","target":"classify"},{"id":"e2","source":"classify","target":"hi"}]}`

// nodeTypes says where each type runs; publishing and the diagnostics warn
// about a node whose type does not run on the server; and its run fails
// saying so in the server's words, never "offline".
func TestNodeTypeAvailability(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})

	var types struct {
		NodeTypes []struct {
			Name         string
			RunsOn       []string
			Mockable     bool
			Availability string
		}
	}
	do(t, ts.c, `{ nodeTypes { name runsOn mockable availability } }`, nil, &types)
	got := map[string]string{}
	for _, nt := range types.NodeTypes {
		got[nt.Name] = strings.Join(nt.RunsOn, ",")
		if nt.Availability == "" {
			t.Errorf("%s has no availability text", nt.Name)
		}
	}
	for typ, want := range map[string]string{"action": "SERVER,OFFLINE", "await_reply": "SERVER,OFFLINE", "llm": "SERVER,OFFLINE", "approval": "SERVER", "sub_agent": "SERVER", "knowledge_search": ""} {
		if runs, ok := got[typ]; !ok || runs != want {
			t.Errorf("nodeTypes: %s runs on %q, want %q", typ, runs, want)
		}
	}

	var created struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "Classifier", graph: $g}) { id } }`,
		map[string]any{"g": json.RawMessage(unavailableGraph)}, &created)
	wf := created.CreateWorkflow.ID
	const want = `Node "classify": knowledge_search nodes are not available on this server, so every run that reaches the node fails there; the type has no mock mode to stand in for it.`
	type problem struct{ Code, Message string }
	hasWarning := func(where string, ps []problem) {
		t.Helper()
		for _, p := range ps {
			if p.Code == "NODE_TYPE_UNAVAILABLE" && p.Message == want {
				return
			}
		}
		t.Errorf("%s: no NODE_TYPE_UNAVAILABLE warning for the knowledge_search node: %+v", where, ps)
	}
	var diag struct {
		WorkflowDiagnostics struct {
			Publishable bool
			Warnings    []problem
		}
	}
	do(t, ts.c, `query($w: Int!) { workflowDiagnostics(workflowId: $w) { publishable warnings { code message } } }`, map[string]any{"w": wf}, &diag)
	if !diag.WorkflowDiagnostics.Publishable {
		t.Fatal("a warning blocked publishing")
	}
	hasWarning("workflowDiagnostics", diag.WorkflowDiagnostics.Warnings)
	var pub struct{ PublishWorkflow struct{ Warnings []problem } }
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { warnings { code message } } }`, map[string]any{"w": wf}, &pub)
	hasWarning("publishWorkflow", pub.PublishWorkflow.Warnings)

	var agent struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "Classifier", workflowId: $w}) { id } }`, map[string]any{"w": wf}, &agent)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": agent.CreateAgent.ID}, &s)
	send(t, ts, s.StartSession.ID, "where is my order")
	var runs struct {
		WorkflowRuns []struct{ Status, Error string }
	}
	do(t, ts.c, `query($s: Int!) { workflowRuns(sessionId: $s) { status error } }`, map[string]any{"s": s.StartSession.ID}, &runs)
	if len(runs.WorkflowRuns) != 1 || runs.WorkflowRuns[0].Status != "FAILED" {
		t.Fatalf("runs %+v", runs.WorkflowRuns)
	}
	if msg := runs.WorkflowRuns[0].Error; !strings.Contains(msg, "knowledge_search nodes are not available on this server") || strings.Contains(msg, "offline") {
		t.Errorf("the run's error on the server: %q", msg)
	}
}
