package mcpclient

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// Rule: MCP schema drift is INVALID_DATA. Calls that do not match the list
// cached at registration never reach the server.
func TestDriftFoundBeforeSending(t *testing.T) {
	t.Parallel()
	g := startGoServer(t)
	p := newTestPool(t)
	if _, err := p.Register(testContext(t), g.connector(12)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"unknown tool", "refund", map[string]any{},
			`MCP schema drift: tool "refund" is not offered by connector 12 (orders)`},
		{"missing required argument", "add", map[string]any{"a": 1},
			`MCP schema drift: arguments for tool "add" no longer match its input schema: at (root): missing property 'b'`},
		{"wrong type", "add", map[string]any{"a": "one", "b": 2},
			`MCP schema drift: arguments for tool "add" no longer match its input schema: at /a: got string, want integer`},
		{"unexpected argument", "add", map[string]any{"a": 1, "b": 2, "c": 3},
			`MCP schema drift: arguments for tool "add" no longer match its input schema: at (root): additional properties 'c' not allowed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Call(testContext(t), 12, tt.tool, tt.args)
			requireFailure(t, err, failure.InvalidData, false, tt.want)
		})
	}
	if n := g.calls.Load(); n != 0 {
		t.Errorf("the server saw %d tool calls, want none", n)
	}
}

type addV2In struct {
	A        int    `json:"a"`
	B        int    `json:"b"`
	Currency string `json:"currency"`
}

// True drift: the server changes after registration. The pool keeps
// checking against its cached list, and classifies the server's refusal.
func TestDriftOnTheServer(t *testing.T) {
	t.Parallel()
	g := startGoServer(t)
	p := newTestPool(t)
	if _, err := p.Register(testContext(t), g.connector(12)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	args := map[string]any{"a": 1, "b": 2}

	// The tool now wants a currency too; the server says the arguments
	// are invalid (as a tool error, the way the SDK does).
	g.srv.RemoveTools("add")
	mcp.AddTool(g.srv, &mcp.Tool{Name: "add"}, func(context.Context, *mcp.CallToolRequest, addV2In) (*mcp.CallToolResult, addOut, error) {
		return nil, addOut{}, nil
	})
	_, err := p.Call(testContext(t), 12, "add", args)
	requireFailure(t, err, failure.InvalidData, true,
		`MCP schema drift: the input schema of tool "add" on connector 12 (orders) changed since registration`)

	// The tool is gone; the server answers with a JSON-RPC error.
	g.srv.RemoveTools("add")
	_, err = p.Call(testContext(t), 12, "add", args)
	requireFailure(t, err, failure.InvalidData, true,
		`MCP schema drift: tool "add" is no longer offered by connector 12 (orders)`)

	// The cached list is still the one from registration.
	tools, _ := p.Tools(12)
	if len(tools) != 4 || tools[0].Name != "add" {
		t.Errorf("cached tools = %v, want the 4 registered ones", tools)
	}
}
