package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

// TestTenantIsolation gives a second workspace a workflow, an agent, a
// session paused on a question, runs and a key, then tries each of their
// ids with the first workspace's key in every operation that takes one:
// each answers NOT_FOUND and no data.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	ctx := context.Background()
	st := ts.s.store
	other, err := st.CreateWorkspace(ctx, "Other")
	if err != nil {
		t.Fatal(err)
	}
	otherKey := "wtl_other_workspace_key_0123456789"
	key, err := st.CreateAPIKey(ctx, store.APIKey{WorkspaceID: other.ID, Name: "k", Role: store.RoleOwner, Prefix: gql.ShownPrefix(otherKey), Hash: gql.HashKey(otherKey)})
	if err != nil {
		t.Fatal(err)
	}
	oc := client.New(ts.url, otherKey)
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, oc, `mutation($g: JSON!) { createWorkflow(input: {name: "Theirs", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(askGraph)}, &wf)
	do(t, oc, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, oc, `mutation($w: Int!) { createAgent(input: {name: "Theirs", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var ss struct{ StartSession struct{ ID int } }
	do(t, oc, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &ss)
	var turn turnOut
	do(t, oc, sendMessage, map[string]any{"s": ss.StartSession.ID, "t": "hi"}, &turn)
	run := turn.SendMessage.Runs[0].ID

	var ca struct{ CreateCustomAction struct{ ID int } }
	do(t, oc, `mutation { createCustomAction(input: {id: 77, name: "theirs", url: "https://partner.example.com/x"}) { id } }`, nil, &ca)
	ids := map[string]any{"w": wf.CreateWorkflow.ID, "a": ag.CreateAgent.ID, "s": ss.StartSession.ID, "r": run, "k": int(key.ID), "c": ca.CreateCustomAction.ID}
	ops := []string{
		`query($w: Int!) { workflow(id: $w) { id name draft } }`,
		`query($w: Int!) { workflowVersions(workflowId: $w) { number graph } }`,
		`query($w: Int!) { workflowVersionDiff(workflowId: $w, version: 1) { nodesAdded } }`,
		`query($w: Int!) { workflowDiagnostics(workflowId: $w) { publishable } }`,
		`query($r: Int!) { workflowRun(id: $r) { id nodeTrace } }`,
		`query($s: Int) { workflowRuns(sessionId: $s) { id } }`,
		`query($w: Int) { workflowRuns(workflowId: $w) { id } }`,
		`query($s: Int) { pendingAwaitReplies(sessionId: $s) { nodeId options { label } } }`,
		`query($a: Int!) { agent(id: $a) { id name } }`,
		`query($s: Int!) { session(id: $s) { id } }`,
		`query($a: Int) { sessions(agentId: $a) { id } }`,
		`query($s: Int!) { messages(sessionId: $s) { text } }`,
		`mutation($w: Int!) { updateWorkflow(id: $w, input: {name: "mine"}) { id } }`,
		`mutation($w: Int!, $g: JSON!) { updateWorkflow(id: $w, input: {graph: $g}) { id } }`,
		`mutation($w: Int!) { publishWorkflow(id: $w) { number } }`,
		`mutation($w: Int!) { rollbackWorkflow(id: $w, version: 1) { number } }`,
		`mutation($w: Int!) { createAgent(input: {name: "x", workflowId: $w}) { id } }`,
		`mutation($a: Int!) { updateAgent(id: $a, input: {name: "mine"}) { id } }`,
		`mutation($a: Int!, $w: Int!) { updateAgent(id: $a, input: {workflowId: $w}) { id } }`,
		`mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`,
		`mutation($s: Int!) { sendMessage(sessionId: $s, text: "Eve") { messages { text } } }`,
		`mutation($s: Int!) { setSessionIdentity(sessionId: $s, identity: "eve") { id } }`,
		`mutation($s: Int!) { endSession(sessionId: $s) { id } }`,
		`mutation($s: Int!) { runWorkflowTask(sessionId: $s) { runs { id } } }`,
		`mutation($k: Int!) { revokeApiKey(id: $k) }`,
		`query($c: Int!) { customAction(id: $c) { id url headers { value } } }`,
		`mutation($c: Int!) { deleteCustomAction(id: $c) }`,
		`query($c: Int!) { mcpConnector(id: $c) { id } }`,
		`mutation($c: Int!) { deleteMcpConnector(id: $c) }`,
	}
	var own struct{ Agents []struct{ ID int } }
	do(t, ts.c, `{ agents { id } }`, nil, &own)
	mine := own.Agents[0].ID // the caller's own agent, given their workflow
	for _, op := range ops {
		vars := map[string]any{"g": json.RawMessage(askGraph)}
		for k, v := range ids {
			vars[k] = v
		}
		if op == ops[18] {
			vars["a"] = mine
		}
		var out map[string]any
		err := ts.c.Do(ctx, op, vars, &out)
		es, ok := err.(client.Errors)
		if !ok || es.Code() != "NOT_FOUND" {
			t.Errorf("%s: %v, want NOT_FOUND", op, err)
		}
		for k, v := range out {
			if v != nil {
				t.Errorf("%s: answered data %s = %v", op, k, v)
			}
		}
	}
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/sessions/%d/events", ts.url, ss.StartSession.ID), nil)
	req.Header.Set("Authorization", "Bearer "+testKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("another workspace's event stream: HTTP %d, want 404", resp.StatusCode)
	}

	// Nothing of theirs changed.
	var after struct {
		Session struct {
			Status   string
			Identity *string
		}
		Messages []struct{ Text string }
	}
	do(t, oc, `query($s: Int!) { session(id: $s) { status identity } messages(sessionId: $s) { text } }`, map[string]any{"s": ss.StartSession.ID}, &after)
	if after.Session.Status != "OPEN" || after.Session.Identity != nil || len(after.Messages) != 2 {
		t.Errorf("the other workspace's session was touched: %+v", after)
	}
	var theirs struct{ CustomActions []struct{ ID int } }
	do(t, oc, `{ customActions { id } }`, nil, &theirs)
	if len(theirs.CustomActions) != 1 {
		t.Errorf("the other workspace's custom action was deleted: %+v", theirs)
	}
}

// TestRoles checks that a MEMBER key cannot run OWNER-only operations, a
// revoked key stops working, and a wrong key is refused.
func TestRoles(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	var created struct {
		CreateAPIKey struct {
			Key    string
			APIKey struct {
				ID           int
				Role, Prefix string
			}
		}
	}
	do(t, ts.c, `mutation { createApiKey(name: "ci", role: MEMBER) { key apiKey { id role prefix } } }`, nil, &created)
	k := created.CreateAPIKey
	if k.APIKey.Role != "MEMBER" || len(k.Key) < 40 || k.Key[:12] != k.APIKey.Prefix {
		t.Fatalf("created key %+v", k)
	}
	member := client.New(ts.url, k.Key)
	wantCode(t, member, "FORBIDDEN", `{ apiKeys { id } }`, nil)
	wantCode(t, member, "FORBIDDEN", `mutation { createApiKey(name: "x", role: OWNER) { key } }`, nil)
	do(t, member, `{ agents { id } }`, nil, nil)
	var keys struct {
		APIKeys []struct {
			ID     int
			Prefix string
		}
	}
	do(t, ts.c, `{ apiKeys { id prefix } }`, nil, &keys)
	if len(keys.APIKeys) != 2 {
		t.Fatalf("apiKeys: %+v", keys)
	}
	do(t, ts.c, `mutation($k: Int!) { revokeApiKey(id: $k) }`, map[string]any{"k": k.APIKey.ID}, nil)
	if err := member.Do(context.Background(), `{ agents { id } }`, nil, nil); err == nil || err.(client.Errors).Code() != "UNAUTHENTICATED" {
		t.Fatalf("a revoked key still works: %v", err)
	}
	wantCode(t, client.New(ts.url, ""), "UNAUTHENTICATED", `{ agents { id } }`, nil)
	wantCode(t, client.New(ts.url, "wtl_not_a_real_key_at_all_000000000"), "UNAUTHENTICATED", `{ agents { id } }`, nil)
}

// TestLimits checks the request limits: body size, query depth, a message
// over its size.
func TestLimits(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{MaxBodyBytes: 64 << 10})
	big := strings.Repeat("x", 70<<10)
	wantCode(t, ts.c, "LIMIT", `mutation($t: String!) { sendMessage(sessionId: 1, text: $t) { runs { id } } }`, map[string]any{"t": big})
	// __schema types fields type, 9 ofType, name: 14 levels.
	deep := `{ agents { id } a: __schema { types { fields { type { ` + strings.Repeat("ofType { ", 9) + `name` + strings.Repeat(" }", 9) + ` } } } } }`
	wantCode(t, ts.c, "LIMIT", deep, nil)
	session := startDemoSession(t, ts)
	wantCode(t, ts.c, "LIMIT", sendMessage, map[string]any{"s": session, "t": strings.Repeat("y", 33<<10)})
	wantCode(t, ts.c, "VALIDATION", sendMessage, map[string]any{"s": session, "t": "  "})
	wantCode(t, ts.c, "VALIDATION", `{ nope }`, nil)
}
