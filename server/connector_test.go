package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wetel/wetel/internal/testpeer"
)

// TestConnectorThroughTheAPI registers the reference MCP server as a stdio
// connector with registerMcpConnector (its tool list cached and shown,
// its credential masked), and a tool node calls its echo tool in a turn,
// before and after a restart of the server.
func TestConnectorThroughTheAPI(t *testing.T) {
	t.Parallel()
	cmd := testpeer.Everything(t, "stdio")
	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir})
	var reg struct {
		RegisterMcpConnector struct {
			ID          int
			Tools       []struct{ Name string }
			Credentials []struct{ Name, Value string }
		}
	}
	do(t, ts.c, `mutation($cmd: [String!]) { registerMcpConnector(input: {id: 12, name: "everything", transport: "stdio",
		command: $cmd, credentials: [{name: "API_TOKEN", value: "connector-secret-123456"}]}) { id tools credentials { name value } } }`,
		map[string]any{"cmd": cmd}, &reg)
	r := reg.RegisterMcpConnector
	if r.ID != 12 || len(r.Tools) == 0 || len(r.Credentials) != 1 || strings.Contains(r.Credentials[0].Value, "connector-secret") {
		t.Fatalf("registered %+v", r)
	}
	// The tool list reads as documented: [{name, description, inputSchema}].
	var shown struct {
		McpConnector struct{ Tools []map[string]any }
	}
	do(t, ts.c, `{ mcpConnector(id: 12) { tools } }`, nil, &shown)
	for _, tool := range shown.McpConnector.Tools {
		if _, ok := tool["name"]; !ok || tool["inputSchema"] == nil || tool["Name"] != nil {
			t.Fatalf("a tool reads %v, want camelCase name, description, inputSchema", tool)
		}
	}
	// A second connector of that name says so.
	es := wantCode(t, ts.c, "CONFLICT", `mutation($cmd: [String!]) { registerMcpConnector(input: {name: "everything", transport: "stdio", command: $cmd}) { id } }`,
		map[string]any{"cmd": cmd})
	if !strings.Contains(es.Error(), `named "everything"`) {
		t.Errorf("a duplicate connector name answered %v", es)
	}
	graph := `{"nodes":[{"id":"start","type":"start"},
		{"id":"call","type":"tool","config":{"connectorId":12,"toolName":"echo","argsTemplate":"{\"message\": \"{{userMessage}}\"}","outputVar":"echoed"}},
		{"id":"say","type":"response","config":{"messageTemplate":"tool said: {{echoed}}"}},
		{"id":"sorry","type":"response","config":{"messageTemplate":"failed: {{_lastNodeErrorCode}}"}}],
		"edges":[{"id":"e1","source":"start","target":"call"},{"id":"e2","source":"call","target":"say","label":"success"},
		{"id":"e3","source":"call","target":"sorry","label":"failure"}]}`
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "echo", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "echo", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)
	if m := send(t, ts, s.StartSession.ID, "ping one").SendMessage.Messages; len(m) != 1 || !strings.Contains(m[0].Text, "tool said:") || !strings.Contains(m[0].Text, "ping one") {
		t.Fatalf("turn: %+v", m)
	}
	ts.stop(t)

	again := startServer(t, Config{DataDir: dir})
	if m := send(t, again, s.StartSession.ID, "ping two").SendMessage.Messages; len(m) != 1 || !strings.Contains(m[0].Text, "ping two") {
		t.Fatalf("turn after a restart: %+v", m)
	}
}

// TestConnectorThatCannotConnect refuses a registration whose server does
// not start, and leaves nothing registered.
func TestConnectorThatCannotConnect(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	wantCode(t, ts.c, "VALIDATION", `mutation { registerMcpConnector(input: {name: "nope", transport: "stdio",
		command: ["/nonexistent/mcp-server"]}) { id } }`, nil)
	wantCode(t, ts.c, "VALIDATION", `mutation { registerMcpConnector(input: {name: "bad", transport: "ftp", url: "ftp://x"}) { id } }`, nil)
	var list struct{ McpConnectors []struct{ ID int } }
	do(t, ts.c, `{ mcpConnectors { id } }`, nil, &list)
	if len(list.McpConnectors) != 0 {
		t.Fatalf("a failed registration left %+v", list.McpConnectors)
	}
}

// A second custom action with a name already taken answers CONFLICT and
// says which name, not "try again".
func TestDuplicateCustomActionName(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	const create = `mutation($id: Int) { createCustomAction(input: {id: $id, name: "lookup", url: "https://partner.example.com/x"}) { id } }`
	do(t, ts.c, create, nil, nil)
	for _, id := range []any{nil, 9} {
		es := wantCode(t, ts.c, "CONFLICT", create, map[string]any{"id": id})
		if msg := es.Error(); !strings.Contains(msg, `named "lookup"`) || strings.Contains(msg, "try again") {
			t.Errorf("id %v: a duplicate name answered %q", id, msg)
		}
	}
}
