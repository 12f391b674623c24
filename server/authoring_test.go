package server

import (
	"encoding/json"
	"reflect"
	"testing"
)

const askGraph = `{"nodes":[{"id":"start","type":"start"},
 {"id":"ask","type":"await_reply","config":{"promptTemplate":"Name?","saveAs":"name"}},
 {"id":"hi","type":"response","config":{"messageTemplate":"Hello {{name}}"}}],
 "edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"hi","label":"answered"}]}`

const askGraphV2 = `{"nodes":[{"id":"start","type":"start"},
 {"id":"ask","type":"await_reply","config":{"promptTemplate":"Your name?","saveAs":"name"}},
 {"id":"hi","type":"response","config":{"messageTemplate":"Welcome {{name}}"}},
 {"id":"bye","type":"end_session"}],
 "edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"hi","label":"answered"},{"id":"e3","source":"hi","target":"bye"}]}`

// TestAuthoringAndVersions authors, publishes, changes, diffs, publishes
// again and rolls back, then chats with the rolled-back version.
func TestAuthoringAndVersions(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})

	es := wantCode(t, ts.c, "VALIDATION", `mutation($g: JSON!) { createWorkflow(input: {name: "bad", graph: $g}) { id } }`,
		map[string]any{"g": json.RawMessage(`{"nodes":[{"id":"a","type":"response","config":{"messageTemplate":"x","maxVisits":0}}],"edges":[]}`)})
	if es[0].Extensions["problems"] == nil {
		t.Errorf("a refused save names no problems: %+v", es[0])
	}

	var created struct {
		CreateWorkflow struct{ ID, PublishedVersion int }
	}
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "Greeter", graph: $g}) { id publishedVersion } }`,
		map[string]any{"g": json.RawMessage(askGraph)}, &created)
	wf := created.CreateWorkflow.ID
	if created.CreateWorkflow.PublishedVersion != 0 {
		t.Fatalf("a new workflow is published: %+v", created)
	}

	publish := func() int {
		var out struct{ PublishWorkflow struct{ Number int } }
		do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf}, &out)
		return out.PublishWorkflow.Number
	}
	if n := publish(); n != 1 {
		t.Fatalf("first publish = version %d", n)
	}
	if n := publish(); n != 1 {
		t.Fatalf("publishing an unchanged graph made version %d, want 1 again", n)
	}

	do(t, ts.c, `mutation($w: Int!, $g: JSON!) { updateWorkflow(id: $w, input: {graph: $g}) { id } }`,
		map[string]any{"w": wf, "g": json.RawMessage(askGraphV2)}, nil)
	var diff struct {
		WorkflowVersionDiff struct {
			NodesAdded, NodesRemoved, NodesChanged, EdgesAdded, EdgesRemoved, EdgesChanged []string
		}
	}
	do(t, ts.c, `query($w: Int!) { workflowVersionDiff(workflowId: $w, version: 1) {
		nodesAdded nodesRemoved nodesChanged edgesAdded edgesRemoved edgesChanged } }`, map[string]any{"w": wf}, &diff)
	d := diff.WorkflowVersionDiff
	if !reflect.DeepEqual(d.NodesAdded, []string{"bye"}) || !reflect.DeepEqual(d.NodesChanged, []string{"ask", "hi"}) ||
		!reflect.DeepEqual(d.EdgesAdded, []string{"e3"}) || len(d.NodesRemoved)+len(d.EdgesRemoved)+len(d.EdgesChanged) != 0 {
		t.Fatalf("diff of version 1 against the draft: %+v", d)
	}
	var diag struct{ WorkflowDiagnostics struct{ Publishable bool } }
	do(t, ts.c, `query($w: Int!) { workflowDiagnostics(workflowId: $w) { publishable } }`, map[string]any{"w": wf}, &diag)
	if !diag.WorkflowDiagnostics.Publishable {
		t.Fatal("the v2 draft is not publishable")
	}
	if n := publish(); n != 2 {
		t.Fatalf("publishing a changed draft = version %d, want 2", n)
	}

	var rb struct {
		RollbackWorkflow struct {
			Number int
			Graph  json.RawMessage
		}
	}
	do(t, ts.c, `mutation($w: Int!) { rollbackWorkflow(id: $w, version: 1) { number graph } }`, map[string]any{"w": wf}, &rb)
	if rb.RollbackWorkflow.Number != 3 {
		t.Fatalf("rollback published version %d, want 3", rb.RollbackWorkflow.Number)
	}
	var versions struct {
		WorkflowVersions []struct{ Number int }
		Workflow         struct {
			PublishedVersion int
			Draft            json.RawMessage
		}
	}
	do(t, ts.c, `query($w: Int!) { workflowVersions(workflowId: $w) { number } workflow(id: $w) { publishedVersion draft } }`,
		map[string]any{"w": wf}, &versions)
	if got := versions.WorkflowVersions; len(got) != 3 || got[0].Number != 3 || got[2].Number != 1 {
		t.Fatalf("versions newest first: %+v", got)
	}
	if versions.Workflow.PublishedVersion != 3 || !sameJSON(versions.Workflow.Draft, askGraphV2) {
		t.Fatalf("after rollback: published %d, draft %s (the draft must be untouched)", versions.Workflow.PublishedVersion, versions.Workflow.Draft)
	}

	var agent struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "Greeter", workflowId: $w}) { id } }`, map[string]any{"w": wf}, &agent)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": agent.CreateAgent.ID}, &s)
	if q := send(t, ts, s.StartSession.ID, "hi").SendMessage.Messages; len(q) != 1 || q[0].Text != "Name?" {
		t.Fatalf("the rolled-back version asked %+v, want version 1's question", q)
	}
	if m := send(t, ts, s.StartSession.ID, "Ada").SendMessage.Messages; len(m) != 1 || m[0].Text != "Hello Ada" {
		t.Fatalf("reply %+v", m)
	}

	var schema struct{ NodeConfigSchema map[string]any }
	do(t, ts.c, `{ nodeConfigSchema(type: "action") }`, nil, &schema)
	props, _ := schema.NodeConfigSchema["properties"].(map[string]any)
	if props["maxVisits"] == nil || props["mockResponse"] == nil {
		t.Fatalf("action schema lacks maxVisits or mockResponse: %v", schema.NodeConfigSchema)
	}
	do(t, ts.c, `{ nodeConfigSchema(type: "switch") }`, nil, &schema)
	props, _ = schema.NodeConfigSchema["properties"].(map[string]any)
	if props["maxVisits"] == nil || props["mockResponse"] != nil {
		t.Fatalf("switch schema: maxVisits must be there and mockResponse not: %v", schema.NodeConfigSchema)
	}
	wantCode(t, ts.c, "NOT_FOUND", `{ nodeConfigSchema(type: "nope") }`, nil)
}

func sameJSON(a json.RawMessage, b string) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal([]byte(b), &vb) == nil && reflect.DeepEqual(va, vb)
}
