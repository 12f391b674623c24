package mcpclient

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// stopGrace is how long closing a stdio session waits for the server
	// to exit after its input closes, and again after SIGTERM, before it
	// is killed: long enough to flush, short enough that a pool shutting
	// down is not held by a server that ignores its input.
	stopGrace = 2 * time.Second
	// stderrTail is how much of a stdio server's last output on stderr is
	// kept to explain a failed start.
	stderrTail = 1024
	// sseRetries is how often a broken Streamable HTTP answer stream is
	// resumed; the SDK waits 1 s, then 1.5 s, before the attempts.
	sseRetries = 2
)

// inheritedEnv are the only variables a stdio server gets from the
// engine's environment. Rule: the command runs with a minimal environment,
// never the server's whole environment, which holds the engine's secrets.
var inheritedEnv = []string{"PATH", "HOME"}

// stdioTransport prepares the connector's command. The process is started
// by Connect, in a process group of its own so that Close can also end
// the children a wrapper such as npx or sh leaves behind.
func stdioTransport(c Connector) (*stdioStarter, *tailBuffer) {
	cmd := exec.Command(c.Command[0], c.Command[1:]...)
	cmd.Env = minimalEnv(c.Env)
	tail := &tailBuffer{}
	cmd.Stderr = tail
	// A grandchild holding stderr open must not keep Wait from returning.
	cmd.WaitDelay = stopGrace
	setProcessGroup(cmd)
	return &stdioStarter{inner: mcp.CommandTransport{Command: cmd, TerminateDuration: stopGrace}}, tail
}

// stdioStarter is the SDK's command transport, remembering whether the
// process started so that a handshake cut short by its context can kill
// the process at once: the SDK's own shutdown would first wait for the
// server to exit by itself, past the caller's deadline.
type stdioStarter struct {
	inner   mcp.CommandTransport
	mu      sync.Mutex
	started bool
}

// Connect starts the process.
func (s *stdioStarter) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := s.inner.Connect(ctx)
	s.mu.Lock()
	s.started = err == nil
	s.mu.Unlock()
	return conn, err
}

// kill kills the process group, if the process was started.
func (s *stdioStarter) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		killProcessGroup(s.inner.Command)
	}
}

// minimalEnv returns PATH and HOME from the engine's environment, then the
// connector's own variables, which win.
func minimalEnv(own map[string]string) []string {
	var env []string
	for _, k := range inheritedEnv {
		if _, set := own[k]; set {
			continue
		}
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	keys := make([]string, 0, len(own))
	for k := range own {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		env = append(env, k+"="+own[k])
	}
	return env
}

// tailBuffer keeps the last stderrTail bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept output on one line.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(strings.ToValidUTF8(string(t.buf), "")), " ")
}

// httpTransport prepares a Streamable HTTP transport on a copy of base
// that adds the connector's credential headers. The standalone SSE stream
// is off: a tool call needs request and answer only, and a stream that
// hangs open would hold a connection per connector for nothing. A broken
// answer stream is resumed sseRetries times, which rides out a blip but
// reports a dead server as UNREACHABLE well before a node's timeout.
func httpTransport(c Connector, base *http.Client) *mcp.StreamableClientTransport {
	client := *base
	rt := client.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	client.Transport = &credentialTransport{base: rt, origin: origin(c.URL), headers: c.Headers}
	return &mcp.StreamableClientTransport{Endpoint: c.URL, HTTPClient: &client, DisableStandaloneSSE: true, MaxRetries: sseRetries}
}

// credentialTransport adds credential headers to requests for the
// connector's origin only, so that a redirect to another host does not
// carry them away, and records the status of failed answers.
type credentialTransport struct {
	base    http.RoundTripper
	origin  string
	headers map[string]string
}

func (t *credentialTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 && origin(req.URL.String()) == t.origin {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			// The SDK's own protocol headers win over a credential of the
			// same name.
			if req.Header.Get(k) == "" {
				req.Header.Set(k, v)
			}
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode >= 400 {
		if rec, ok := req.Context().Value(statusKey{}).(*statusRecorder); ok {
			rec.status.Store(int32(resp.StatusCode))
		}
	}
	return resp, err
}

// origin returns the scheme and host of a URL, lower-cased.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// statusRecorder receives the HTTP status of a failed answer during one
// request: the SDK reports such answers by their status text only, and
// failure classification needs the number (429, 4xx, 5xx).
type statusRecorder struct{ status atomic.Int32 }

type statusKey struct{}

// withStatus returns ctx carrying a fresh recorder.
func withStatus(ctx context.Context) (context.Context, *statusRecorder) {
	rec := &statusRecorder{}
	return context.WithValue(ctx, statusKey{}, rec), rec
}

// get returns the recorded status, 0 when none was.
func (r *statusRecorder) get() int { return int(r.status.Load()) }
