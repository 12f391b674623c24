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
