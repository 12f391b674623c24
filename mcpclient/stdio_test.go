package mcpclient

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
)

func TestStdioMinimalEnvironment(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	c := helperConnector(t, 1, map[string]string{"HELPER_TOKEN": "tok-minimal-env"})
	if _, err := p.Register(testContext(t), c); err != nil {
		t.Fatalf("Register: %v", err)
	}
	res, err := p.Call(testContext(t), 1, "environ", nil)
	if err != nil {
		t.Fatalf("Call environ: %v", err)
	}
	out, ok := res.Structured.(map[string]any)
	if !ok {
		t.Fatalf("Structured = %#v, want an object", res.Structured)
	}
	var keys []string
	for _, kv := range out["env"].([]any) {
		k, _, _ := strings.Cut(kv.(string), "=")
		keys = append(keys, k)
	}
	// Rule: PATH and HOME plus the connector's own variables, nothing of
	// the engine's environment.
	want := []string{"HELPER_TOKEN", helperEnv}
	for _, k := range inheritedEnv {
		if _, ok := os.LookupEnv(k); ok {
			want = append(want, k)
		}
	}
	slices.Sort(keys)
	slices.Sort(want)
	if !slices.Equal(keys, want) {
		t.Errorf("server environment has %v, want exactly %v", keys, want)
	}
}

func TestStdioTimeoutKeepsSession(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	if _, err := p.Register(testContext(t), helperConnector(t, 1, nil)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	before := p.lookup(1).current()
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := p.Call(ctx, 1, "sleep", map[string]any{"ms": 10_000})
	requireFailure(t, err, failure.Timeout, true)
	if _, err := p.Call(testContext(t), 1, "pid", nil); err != nil {
		t.Fatalf("Call after a timeout: %v", err)
	}
	if p.lookup(1).current() != before {
		t.Error("a timeout replaced the session; it should be kept")
	}
}

func TestStdioCrashMidCallThenReconnect(t *testing.T) {
	t.Parallel()
	p := newTestPool(t)
	if _, err := p.Register(testContext(t), helperConnector(t, 1, nil)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	first := callPid(t, p, 1)
	// The server exits while handling the call: the call was sent.
	_, err := p.Call(testContext(t), 1, "crash", nil)
	requireFailure(t, err, failure.Unreachable, true, `calling tool "crash" on connector 1 (helper)`)
	if second := callPid(t, p, 1); second == first {
		t.Errorf("pid after the crash = %d, the same process as before", second)
	}
}

func TestStdioReconnectFailsUnsent(t *testing.T) {
	t.Parallel()
	refuse := filepath.Join(t.TempDir(), "refuse")
	p := newTestPool(t)
	c := helperConnector(t, 1, map[string]string{refuseEnv: refuse, "HELPER_TOKEN": "tok-do-not-show"})
	if _, err := p.Register(testContext(t), c); err != nil {
		t.Fatalf("Register: %v", err)
	}
	if err := os.WriteFile(refuse, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	killServer(t, p, 1)
	waitDropped(t, p, 1)
	// Rule: a failure while connecting is UNREACHABLE and was not sent.
	_, err := p.Call(testContext(t), 1, "pid", nil)
	requireFailure(t, err, failure.Unreachable, false, "connecting to MCP connector 1 (helper)", "refusing to start")
	if strings.Contains(err.Error(), "tok-do-not-show") {
		t.Errorf("error %q shows the connector's credential", err)
	}
	// The cached list survives the failure.
	if tools, ok := p.Tools(1); !ok || len(tools) != 4 {
		t.Errorf("Tools after a failed reconnect = %v, %v; want the 4 cached tools", tools, ok)
	}
}

func TestStdioCloseStopsServer(t *testing.T) {
	t.Parallel()
	p := NewPool(Options{})
	if _, err := p.Register(testContext(t), helperConnector(t, 1, nil)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	pid := callPid(t, p, 1)
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	proc, err := os.FindProcess(pid)
	if err == nil {
		err = proc.Signal(syscall.Signal(0))
	}
	if err == nil {
		t.Errorf("server process %d still runs after Close", pid)
	}
	_, err = p.Call(testContext(t), 1, "pid", nil)
	if !errors.Is(err, ErrClosed) {
		t.Errorf("Call after Close = %v, want ErrClosed", err)
	}
}

func callPid(t *testing.T, p *Pool, id int) int {
	t.Helper()
	res, err := p.Call(testContext(t), id, "pid", nil)
	if err != nil {
		t.Fatalf("Call pid: %v", err)
	}
	return int(res.Structured.(map[string]any)["pid"].(float64))
}

// killServer kills the connector's stdio server from outside, as a crash
// or an OOM kill would.
func killServer(t *testing.T, p *Pool, id int) {
	t.Helper()
	l := p.lookup(id).current()
	if l == nil || l.cmd == nil {
		t.Fatalf("connector %d has no running stdio server", id)
	}
	if err := l.cmd.Process.Kill(); err != nil {
		t.Fatalf("killing the server: %v", err)
	}
}
