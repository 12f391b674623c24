package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// Rule: a failure while connecting is UNREACHABLE with Sent false, so the
// retry layer may resend it.
func TestConnectFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    Connector
		want []string
	}{
		{"command does not exist",
			Connector{ID: 1, Transport: TransportStdio, Command: []string{"/nonexistent/mcp-server"}},
			[]string{"connecting to MCP connector 1", "no such file or directory"}},
		{"command exits at once",
			Connector{ID: 2, Name: "broken", Transport: TransportStdio, Command: []string{"sh", "-c", "echo cannot start >&2; exit 1"}},
			[]string{"connecting to MCP connector 2 (broken)", "stderr: cannot start"}},
		{"closed port",
			Connector{ID: 3, Transport: TransportHTTP, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", freePort(t)),
				Headers: map[string]string{"X-Api-Key": "tok-closed-port"}},
			[]string{"connecting to MCP connector 3", "connection refused"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newTestPool(t)
			_, err := p.Register(testContext(t), tt.c)
			requireFailure(t, err, failure.Unreachable, false, tt.want...)
			if _, ok := p.Tools(tt.c.ID); ok {
				t.Error("Tools reports a list for a connector that could not be listed")
			}
			// The connector stays recorded: a call tries to connect again.
			_, err = p.Call(testContext(t), tt.c.ID, "anything", nil)
			requireFailure(t, err, failure.Unreachable, false, tt.want...)
		})
	}
}

func TestConnectRespectsContext(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	// A server that never answers the handshake.
	_, err := p.Register(ctx, Connector{ID: 1, Transport: TransportStdio, Command: []string{"sleep", "30"}})
	requireFailure(t, err, failure.Timeout, false, "connecting to MCP connector 1")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Register took %v with a 300ms context", d)
	}
}

// A server that is down at registration is registered by the first call
// once it is back.
func TestRegistrationCompletesOnCall(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "late", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add"}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
		return nil, addOut{Sum: in.A + in.B}, nil
	})
	var up atomic.Bool
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	p := newTestPool(t)
	c := Connector{ID: 4, Name: "late", Transport: TransportHTTP, URL: ts.URL}
	_, err := p.Register(testContext(t), c)
	requireFailure(t, err, failure.UpstreamError, false, "connecting to MCP connector 4 (late)")

	up.Store(true)
	res, err := p.Call(testContext(t), 4, "add", map[string]any{"a": 1, "b": 2})
	if err != nil || res.Value.(map[string]any)["sum"] != float64(3) {
		t.Fatalf("Call once the server is up = %+v, %v", res, err)
	}
	if tools, ok := p.Tools(4); !ok || len(tools) != 1 {
		t.Errorf("Tools after the call = %v, %v; want the listed tool", tools, ok)
	}
}

func TestRegisterRejectsInvalidConnector(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    Connector
	}{
		{"no id", Connector{Transport: TransportStdio, Command: []string{"x"}}},
		{"unknown transport", Connector{ID: 1, Transport: "sse", URL: "http://127.0.0.1/"}},
		{"stdio without command", Connector{ID: 1, Transport: TransportStdio}},
		{"http without url", Connector{ID: 1, Transport: TransportHTTP}},
		{"http with relative url", Connector{ID: 1, Transport: TransportHTTP, URL: "/mcp"}},
		{"http with another scheme", Connector{ID: 1, Transport: TransportHTTP, URL: "file:///etc/passwd"}},
	}
	p := newTestPool(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := p.Register(t.Context(), tt.c); !errors.Is(err, ErrInvalidConnector) {
				t.Errorf("Register = %v, want ErrInvalidConnector", err)
			}
		})
	}
}
