package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/internal/testpeer"
)

func TestEverythingStdio(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	c := Connector{ID: 1, Name: "everything", Transport: TransportStdio, Command: testpeer.Everything(t, "stdio"),
		Env: map[string]string{"EVERYTHING_TOKEN": "tok-everything-stdio"}}
	tools, err := p.Register(testContext(t), c)
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"echo", "get-sum", "get-structured-content", "get-env", "trigger-long-running-operation"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %q", names, want)
		}
	}
	t.Run("echo", func(t *testing.T) {
		res, err := p.Call(testContext(t), 1, "echo", map[string]any{"message": "hello"})
		if err != nil || res.Value != "Echo: hello" || res.Text != "Echo: hello" {
			t.Errorf("Call echo = %+v, %v; want Value and Text %q", res, err, "Echo: hello")
		}
	})
	t.Run("structured content", func(t *testing.T) {
		res, err := p.Call(testContext(t), 1, "get-structured-content", map[string]any{"location": "Chicago"})
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		got, ok := res.Value.(map[string]any)
		if !ok || got["temperature"] != float64(36) || res.Structured == nil || !strings.Contains(res.Text, "drizzle") {
			t.Errorf("Result = %+v, want Value to be the structured weather for Chicago", res)
		}
	})
	t.Run("minimal environment", func(t *testing.T) {
		res, err := p.Call(testContext(t), 1, "get-env", nil)
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		var env map[string]string
		if err := json.Unmarshal([]byte(res.Text), &env); err != nil {
			t.Fatalf("get-env text %q: %v", res.Text, err)
		}
		for k := range env {
			if !slices.Contains(inheritedEnv, k) && k != "EVERYTHING_TOKEN" {
				t.Errorf("server environment has %s, which the engine must not pass on", k)
			}
		}
		if env["EVERYTHING_TOKEN"] != "tok-everything-stdio" {
			t.Errorf("server environment lacks the connector's credential")
		}
	})
	t.Run("tool error", func(t *testing.T) {
		// An unsupported URL scheme makes the tool throw, which the server
		// reports as a result with isError.
		res, err := p.Call(testContext(t), 1, "gzip-file-as-resource", map[string]any{"data": "ftp://example.invalid/a.txt"})
		requireFailure(t, err, failure.UpstreamError, true, `tool "gzip-file-as-resource" on connector 1 (everything) reported an error:`, "Unsupported URL protocol")
		if !res.IsError {
			t.Errorf("Result.IsError = false, want true")
		}
	})
	t.Run("schema drift before sending", func(t *testing.T) {
		_, err := p.Call(testContext(t), 1, "echo", map[string]any{})
		requireFailure(t, err, failure.InvalidData, false, `MCP schema drift: arguments for tool "echo" no longer match its input schema: at (root): missing property 'message'`)
		_, err = p.Call(testContext(t), 1, "no-such-tool", nil)
		requireFailure(t, err, failure.InvalidData, false, `MCP schema drift: tool "no-such-tool" is not offered by connector 1 (everything)`)
	})
	t.Run("timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		_, err := p.Call(ctx, 1, "trigger-long-running-operation", map[string]any{"duration": 1, "steps": 1})
		requireFailure(t, err, failure.Timeout, true)
	})
	t.Run("reconnect after the server died", func(t *testing.T) {
		old := p.lookup(1).current()
		killServer(t, p, 1)
		waitDropped(t, p, 1)
		res, err := p.Call(testContext(t), 1, "echo", map[string]any{"message": "again"})
		if err != nil || res.Value != "Echo: again" {
			t.Fatalf("Call after the server died = %+v, %v", res, err)
		}
		if now := p.lookup(1).current(); now == nil || now == old {
			t.Error("the call did not run on a new session")
		}
	})
}

func TestEverythingStreamableHTTP(t *testing.T) {
	t.Parallel()
	cmd := testpeer.Everything(t, "streamableHttp")
	port := freePort(t)
	stop := startEverythingHTTP(t, cmd, port)
	// Without keep-alive every request dials afresh. With it, the first
	// request after the server died may go out on a connection the server
	// had open and fail with EOF, which counts as sent: the pool cannot
	// tell whether the server read the call before it died.
	p := NewPool(Options{HTTPClient: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}})
	t.Cleanup(func() { _ = p.Close() })
	c := Connector{ID: 2, Name: "everything-http", Transport: TransportHTTP, URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
	if _, err := p.Register(testContext(t), c); err != nil {
		t.Fatalf("Register: %v", err)
	}
	res, err := p.Call(testContext(t), 2, "echo", map[string]any{"message": "over http"})
	if err != nil || res.Value != "Echo: over http" {
		t.Fatalf("Call echo = %+v, %v", res, err)
	}
	res, err = p.Call(testContext(t), 2, "get-sum", map[string]any{"a": 2, "b": 40})
	if err != nil || !strings.Contains(res.Text, "42") {
		t.Fatalf("Call get-sum = %+v, %v", res, err)
	}

	// The server is down: the call never left this machine.
	stop()
	_, err = p.Call(testContext(t), 2, "echo", map[string]any{"message": "anyone?"})
	requireFailure(t, err, failure.Unreachable, false, `calling tool "echo" on connector 2 (everything-http)`)

	// A new server process knows nothing of the old session; the pool
	// connects again by itself.
	startEverythingHTTP(t, cmd, port)
	res, err = p.Call(testContext(t), 2, "echo", map[string]any{"message": "back"})
	if err != nil || res.Value != "Echo: back" {
		t.Fatalf("Call after the server restarted = %+v, %v", res, err)
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startEverythingHTTP starts server-everything's Streamable HTTP server on
// the port and waits until it accepts connections. The returned stop
// kills it; the test's cleanup does too.
func startEverythingHTTP(t *testing.T, command []string, port int) (stop func()) {
	t.Helper()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting server-everything: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop = func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	t.Cleanup(stop)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return stop
		}
		select {
		case <-exited:
			t.Fatalf("server-everything exited before listening on %s", addr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s within 10s: %v", addr, err)
		}
	}
}

// TestRestoreKeepsTheRegisteredList restores a connector with a tool list
// that differs from what the server offers now: calls are checked against
// the restored list (a tool it lacks is drift), and a tool it has is
// called on a session opened by that first call.
func TestRestoreKeepsTheRegisteredList(t *testing.T) {
	t.Parallel()
	c := Connector{ID: 7, Name: "everything", Transport: TransportStdio, Command: testpeer.Everything(t, "stdio")}
	p := NewPool(Options{})
	defer p.Close()
	tools := []Tool{{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)}}
	if err := p.Restore(context.Background(), c, tools); err != nil {
		t.Fatal(err)
	}
	if got, ok := p.Tools(7); !ok || len(got) != 1 {
		t.Fatalf("Tools after Restore = %v, %v", got, ok)
	}
	_, err := p.Call(context.Background(), 7, "get-sum", map[string]any{"a": 1, "b": 2})
	if failure.Classify(err) != failure.InvalidData {
		t.Fatalf("a tool the restored list lacks: %v, want INVALID_DATA", err)
	}
	res, err := p.Call(context.Background(), 7, "echo", map[string]any{"message": "hi"})
	if err != nil || !strings.Contains(res.Text, "hi") {
		t.Fatalf("echo after Restore: %+v, %v", res, err)
	}
}
