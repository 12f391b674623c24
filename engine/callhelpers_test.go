package engine_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/wetel/wetel/engine"
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
