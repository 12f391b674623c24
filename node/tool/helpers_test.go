package tool_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
	"github.com/wetel/wetel/outbound"
)

func nd(id, typ, cfg string) string {
	return fmt.Sprintf(`{"id":%q,"type":%q,"label":%q,"config":%s}`, id, typ, id, cfg)
}

// callGraph is start → call → ok (success) / sorry (failure).
func callGraph(call string) string {
	return `{"nodes":[` + nd("s", "start", `{}`) + "," + call + "," +
		nd("ok", "response", `{"messageTemplate":"ok"}`) + "," + nd("sorry", "response", `{"messageTemplate":"{{_lastNodeErrorCode}}"}`) +
		`],"edges":[{"id":"e1","source":"s","target":"call"},{"id":"e2","source":"call","target":"ok","label":"success"},` +
		`{"id":"e3","source":"call","target":"sorry","label":"failure"}]}`
}

func runGraph(t *testing.T, doc string, in engine.Input) *engine.Result {
	t.Helper()
	g, err := graph.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile(g, node.Default)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := engine.New(engine.Options{})
	return eng.Run(context.Background(), p, in)
}

func callRow(t *testing.T, res *engine.Result) engine.TraceRow {
	t.Helper()
	for _, r := range res.NodeTrace {
		if r.NodeID == "call" {
			return r
		}
	}
	t.Fatalf("no row for node call")
	return engine.TraceRow{}
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

// closedPort returns a loopback URL nothing listens on.
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

// callEnv is a run's Services whose retry waits are recorded, not slept.
type callEnv struct {
	svc   *node.Services
	mu    sync.Mutex
	waits []time.Duration
}

func newCallEnv(t *testing.T) *callEnv {
	t.Helper()
	allow, _ := outbound.ParseAllowlist("127.0.0.1/32")
	client, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	ce := &callEnv{}
	ce.svc = &node.Services{HTTP: client, Rand: func() float64 { return 0.5 },
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
