package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/outbound"
)

// partner is a service a test starts on a loopback port: it counts and
// records every request it receives and answers with the test's handler,
// which sees the request's number (from 1).
type partner struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []received
}

type received struct {
	Method, Path, RawQuery, Body string
	Header                       http.Header
}

func newPartner(t *testing.T, h func(w http.ResponseWriter, r *http.Request, n int)) *partner {
	t.Helper()
	p := &partner{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p.mu.Lock()
		p.reqs = append(p.reqs, received{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(body), r.Header.Clone()})
		n := len(p.reqs)
		p.mu.Unlock()
		h(w, r, n)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// count is how many requests reached the partner.
func (p *partner) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.reqs)
}

func (p *partner) request(i int) received {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reqs[i]
}

// closedPort returns a loopback URL nothing listens on: a partner that is down.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// callEnv is the Services of a test run: the guarded client with only
// 127.0.0.1 opened, the actions given, and waits that are recorded instead
// of slept.
type callEnv struct {
	svc   *node.Services
	mu    sync.Mutex
	waits []time.Duration
}

func newCallEnv(t *testing.T, actions node.ActionList) *callEnv {
	t.Helper()
	allow, err := outbound.ParseAllowlist("127.0.0.1/32")
	if err != nil {
		t.Fatal(err)
	}
	client, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	ce := &callEnv{}
	ce.svc = &node.Services{HTTP: client, Actions: actions, Rand: func() float64 { return 0.5 },
		Wait: func(ctx context.Context, d time.Duration) error {
			ce.mu.Lock()
			ce.waits = append(ce.waits, d)
			ce.mu.Unlock()
			return ctx.Err()
		}}
	return ce
}

func (ce *callEnv) waited() []time.Duration {
	ce.mu.Lock()
	defer ce.mu.Unlock()
	return append([]time.Duration(nil), ce.waits...)
}

// callGraph is start → call → ok (success) / sorry (failure); sorry says
// the error code, so a test sees which failure took the edge.
func callGraph(call string) string {
	return gdoc([]string{nd("s", "start", `{}`), call, say("ok", "ok"), say("sorry", "{{_lastNodeErrorCode}}")},
		[]string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success"), ed("e3", "call", "sorry", "failure")})
}

// action is an action node "call" on custom action 1 with extra config.
func action(extra string) string {
	cfg := `{"customActionId":1,"outputVar":"out"` + extra + `}`
	return nd("call", "action", cfg)
}

// attempts renders a row's attempts as "n:CLASS/status/waitMs" entries.
func attempts(row engine.TraceRow) string {
	if row.TraceDetail == nil {
		return ""
	}
	parts := make([]string, len(row.Attempts))
	for i, a := range row.Attempts {
		parts[i] = fmt.Sprintf("%d:%s/%d/%d", a.N, a.ErrorClass, a.HTTPStatus, a.WaitMs)
	}
	return strings.Join(parts, " ")
}

func retryOutcome(row engine.TraceRow) string {
	if row.TraceDetail == nil {
		return ""
	}
	return row.RetryOutcome
}

// callRow returns the trace row of node "call".
func callRow(t *testing.T, res *engine.Result) engine.TraceRow {
	t.Helper()
	for _, r := range res.NodeTrace {
		if r.NodeID == "call" {
			return r
		}
	}
	t.Fatalf("no row for node call: %s", path(res))
	return engine.TraceRow{}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
