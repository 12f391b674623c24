package server

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/clock"
)

const testKey = "wtl_test_bootstrap_key_0123456789"

// testServer is a real server on a loopback port.
type testServer struct {
	s      *Server
	c      *client.Client
	url    string
	cancel context.CancelFunc
	done   chan error
}

func startServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	if cfg.BootstrapKey == "" {
		cfg.BootstrapKey = testKey
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(testLog{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if cfg.Getenv == nil {
		// The developer's own OPENAI_* settings must not reach a test.
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.RateLimits == nil {
		// Tests send requests as fast as they can; the limits have tests of
		// their own (ratelimit_test.go).
		cfg.RateLimits = &RateLimits{}
	}
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{s: s, url: "http://" + ln.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	ts.c = client.New(ts.url, cfg.BootstrapKey)
	go func() { ts.done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() { ts.stop(t) })
	return ts
}

// backgroundLoops is how many timers a running server keeps armed on its
// clock while idle: the event hub's janitor and persister, async webhook
// delivery and event pruning.
const backgroundLoops = 4

// advance moves clk, the server's clock, by d once the server's background
// loops wait on it, and returns when the passes it woke are over (each loop
// re-arms its timer after a pass).
func (ts *testServer) advance(t *testing.T, clk *clock.Fake, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := clk.BlockUntil(ctx, backgroundLoops); err != nil {
		t.Fatalf("before advancing the clock: %v", err)
	}
	clk.Advance(d)
	if err := clk.BlockUntil(ctx, backgroundLoops); err != nil {
		t.Fatalf("after advancing the clock: %v", err)
	}
}

// testLog sends the server's log lines to the test's output.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// stop shuts the server down and waits for it, once.
func (ts *testServer) stop(t *testing.T) {
	t.Helper()
	if ts.cancel == nil {
		return
	}
	ts.cancel()
	ts.cancel = nil
	select {
	case err := <-ts.done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("the server did not stop")
	}
}

// do runs a GraphQL operation and fails the test on an error.
func do(t *testing.T, c *client.Client, query string, vars map[string]any, out any) {
	t.Helper()
	if err := c.Do(context.Background(), query, vars, out); err != nil {
		t.Fatalf("%s: %v", firstLine(query), err)
	}
}

// wantCode runs an operation that must fail with code.
func wantCode(t *testing.T, c *client.Client, code, query string, vars map[string]any) client.Errors {
	t.Helper()
	var out map[string]any
	err := c.Do(context.Background(), query, vars, &out)
	es, ok := err.(client.Errors)
	if !ok || es.Code() != code {
		t.Fatalf("%s: got %v (data %v), want %s", firstLine(query), err, out, code)
	}
	return es
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// lockedBuffer is a log sink the server writes from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
