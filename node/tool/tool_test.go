package tool_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/internal/calltest"
	"github.com/wetel/wetel/internal/testpeer"
	"github.com/wetel/wetel/mcpclient"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/outbound"
)

// startEverythingHTTP runs server-everything's Streamable HTTP server on a
// free loopback port and returns its MCP URL.
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	command := testpeer.Everything(t, "streamableHttp")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting server-everything: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(15 * time.Second); ; {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return "http://" + addr + "/mcp"
		}
		select {
		case <-exited:
			t.Fatalf("server-everything exited before listening on %s", addr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s", addr)
		}
	}
}

// The tool node against the reference MCP server, over stdio and over
// Streamable HTTP (through the guarded client, 127.0.0.1 allowlisted): a
// call that succeeds, a tool error, and schema drift.
func TestToolAgainstReferenceServer(t *testing.T) {
	t.Parallel()
	connectors := map[string]func(t *testing.T) mcpclient.Connector{
		"stdio": func(t *testing.T) mcpclient.Connector {
			return mcpclient.Connector{ID: 7, Name: "everything", Transport: mcpclient.TransportStdio, Command: testpeer.Everything(t, "stdio")}
		},
		"streamable http": func(t *testing.T) mcpclient.Connector {
			return mcpclient.Connector{ID: 7, Name: "everything", Transport: mcpclient.TransportHTTP, URL: startEverythingHTTP(t)}
		},
	}
	for transport, connector := range connectors {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			c := connector(t)
			allow, _ := outbound.ParseAllowlist("127.0.0.1/32")
			client, err := outbound.New(outbound.Config{Allow: allow})
			if err != nil {
				t.Fatal(err)
			}
			pool := mcpclient.NewPool(mcpclient.Options{HTTPClient: client.HTTP()})
			t.Cleanup(func() { _ = pool.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := pool.Register(ctx, c); err != nil {
				t.Fatalf("Register: %v", err)
			}
			svc := node.NewServices(callout.ToolsKey.With(callout.PoolTools{Pool: pool}))
			cases := []struct {
				name, tool, args, status, class, outcome string
				check                                    func(out any) bool
			}{
				{name: "a call that succeeds", tool: "echo", args: `{\"message\":\"{{userMessage}}\"}`, status: "COMPLETED",
					check: func(out any) bool { return out == "Echo: where is ORD-48213?" }},
				{name: "structured content", tool: "get-structured-content", args: `{\"location\":\"Chicago\"}`, status: "COMPLETED",
					check: func(out any) bool { m, ok := out.(map[string]any); return ok && m["temperature"] != nil }},
				{name: "a tool error", tool: "gzip-file-as-resource", args: `{\"data\":\"ftp://example.invalid/a.txt\"}`,
					status: "FAILED_HANDLED", class: "UPSTREAM_ERROR", outcome: "not_retryable"},
				{name: "schema drift: arguments", tool: "echo", args: `{\"text\":\"{{userMessage}}\"}`,
					status: "FAILED_HANDLED", class: "INVALID_DATA", outcome: "not_retryable"},
				{name: "schema drift: a tool that is gone", tool: "get-order-status", args: `{}`,
					status: "FAILED_HANDLED", class: "INVALID_DATA", outcome: "not_retryable"},
			}
			for _, tc := range cases {
				call := nd("call", "tool", fmt.Sprintf(`{"connectorId":7,"toolName":%q,"argsTemplate":"%s","outputVar":"out","timeoutMs":20000}`, tc.tool, tc.args))
				res := runGraph(t, callGraph(call), engine.Input{Services: svc, Vars: map[string]any{"userMessage": "where is ORD-48213?"}})
				row := callRow(t, res)
				if row.Status != tc.status || row.ErrorClass != tc.class || calltest.Outcome(row) != tc.outcome {
					t.Errorf("%s: row %s %s %s (%v)", tc.name, row.Status, row.ErrorClass, calltest.Outcome(row), res.Vars["_lastNodeError"])
					continue
				}
				if tc.check != nil && !tc.check(res.Vars["out"]) {
					t.Errorf("%s: out = %#v", tc.name, res.Vars["out"])
				}
				if row.Error != "" || (tc.class != "" && calltest.Attempts(row) != "1:"+tc.class+"/0/0") {
					t.Errorf("%s: row carries %q, attempts %s", tc.name, row.Error, calltest.Attempts(row))
				}
			}
		})
	}
}

// Seed: "a tool retries a connection failure up to 3 attempts" when the
// node has no retry policy; the waits are the built-in 500 ms, jittered.
func TestToolConnectorDown(t *testing.T) {
	t.Parallel()
	ce := calltest.NewEnv(t, nil)
	client, _ := callout.HTTPKey.Get(ce.Services)
	pool := mcpclient.NewPool(mcpclient.Options{HTTPClient: client.HTTP()})
	t.Cleanup(func() { _ = pool.Close() })
	// Registering a connector whose server is down records it anyway.
	_, err := pool.Register(context.Background(), mcpclient.Connector{ID: 3, Name: "orders", Transport: mcpclient.TransportHTTP, URL: testpeer.ClosedPort(t) + "/mcp"})
	if err == nil {
		t.Fatal("Register reached a closed port")
	}
	callout.ToolsKey.Provide(ce.Services, callout.PoolTools{Pool: pool})
	call := nd("call", "tool", `{"connectorId":3,"toolName":"lookup","argsTemplate":"{\"q\":\"{{userMessage}}\"}","outputVar":"out"}`)
	res := runGraph(t, callGraph(call), engine.Input{Services: ce.Services})
	row := callRow(t, res)
	if row.ErrorClass != "UNREACHABLE" || calltest.Outcome(row) != "exhausted" || calltest.Attempts(row) != "1:UNREACHABLE/0/500 2:UNREACHABLE/0/500 3:UNREACHABLE/0/0" {
		t.Errorf("row %s %s %s (%v)", row.ErrorClass, calltest.Outcome(row), calltest.Attempts(row), res.Vars["_lastNodeError"])
	}
	if w := ce.Waited(); len(w) != 2 || w[0] != 500*time.Millisecond {
		t.Errorf("waits %v", w)
	}
	// A connector id the workspace never registered is not retried.
	call = nd("call", "tool", `{"connectorId":99,"toolName":"lookup","outputVar":"out"}`)
	res = runGraph(t, callGraph(call), engine.Input{Services: ce.Services})
	row = callRow(t, res)
	msg, _ := res.Vars["_lastNodeError"].(string)
	if row.ErrorClass != "UNKNOWN" || calltest.Outcome(row) != "not_retryable" || !strings.Contains(msg, `tool node "call": connector 99: MCP connector is not registered`) {
		t.Errorf("row %s %s, message %q", row.ErrorClass, calltest.Outcome(row), msg)
	}
}
