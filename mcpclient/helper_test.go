package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// helperEnv makes the test binary run helperServer instead of the tests:
// the stdio tests start the binary itself as their MCP server, so they
// need nothing installed.
const helperEnv = "WETEL_MCPCLIENT_HELPER"

// refuseEnv names a file whose existence makes the helper exit at start,
// printing its token to stderr, for tests of failed (re)connects.
const refuseEnv = "WETEL_MCPCLIENT_HELPER_REFUSE"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "stdio" {
		helperServer()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type environOut struct {
	Env []string `json:"env"`
}

type pidOut struct {
	Pid int `json:"pid"`
}

type sleepIn struct {
	Ms int `json:"ms"`
}

// helperServer is a small MCP server on stdin and stdout.
func helperServer() {
	if f := os.Getenv(refuseEnv); f != "" {
		if _, err := os.Stat(f); err == nil {
			fmt.Fprintf(os.Stderr, "refusing to start with token %s\n", os.Getenv("HELPER_TOKEN"))
			os.Exit(2)
		}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "helper", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "environ"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, environOut, error) {
		return nil, environOut{Env: os.Environ()}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "pid"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, pidOut, error) {
		return nil, pidOut{Pid: os.Getpid()}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "sleep"}, func(ctx context.Context, _ *mcp.CallToolRequest, in sleepIn) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(time.Duration(in.Ms) * time.Millisecond):
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slept"}}}, nil, nil
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	})
	mcp.AddTool(s, &mcp.Tool{Name: "crash"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		os.Exit(3)
		return nil, nil, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
}

// helperConnector returns a stdio connector running helperServer.
func helperConnector(t *testing.T, id int, env map[string]string) Connector {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("finding the test binary: %v", err)
	}
	if env == nil {
		env = map[string]string{}
	}
	env[helperEnv] = "stdio"
	return Connector{ID: id, Name: "helper", Transport: TransportStdio, Command: []string{exe}, Env: env}
}

// newTestPool returns a pool that logs to the test's output and is closed
// when the test ends.
func newTestPool(t *testing.T) *Pool {
	t.Helper()
	p := NewPool(Options{Logger: slog.New(slog.NewTextHandler(t.Output(), nil))})
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// testContext bounds one step of a test, so that a hang fails instead of
// running into the test binary's timeout.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// requireFailure checks that err is a *failure.Error of the class, with
// Sent as given, whose text contains each of the fragments.
func requireFailure(t *testing.T, err error, code failure.Code, sent bool, fragments ...string) *failure.Error {
	t.Helper()
	var fe *failure.Error
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *failure.Error", err, err)
	}
	if got := failure.Classify(err); got != code {
		t.Errorf("class of %q = %s, want %s", err, got, code)
	}
	if fe.Sent != sent {
		t.Errorf("Sent of %q = %v, want %v", err, fe.Sent, sent)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not contain %q", err, f)
		}
	}
	return fe
}

// waitDropped waits until the pool has noticed that the connector's
// session ended.
func waitDropped(t *testing.T, p *Pool, id int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for p.lookup(id).current() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("connector %d: session still current 10s after its server died", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
