package server

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
)

// TestAsyncWebhookIsDurable queues an async webhook through a turn and sees
// it delivered, then puts a request in the queue of a stopped server and
// sees the next start deliver it: a queued request survives a restart.
func TestAsyncWebhookIsDurable(t *testing.T) {
	t.Parallel()
	got := make(chan string, 4)
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r.URL.Path + " " + string(b) + " " + r.Header.Get("X-Token")
	}))
	defer partner.Close()
	// The server's clock only moves when the test says: once the delivery
	// poll it wakes is over, the request has been sent.
	clk := clock.NewFake(time.Now())
	poll := func(ts *testServer) string {
		t.Helper()
		ts.advance(t, clk, outboxEvery)
		select {
		case r := <-got:
			return r
		default:
			t.Fatal("the partner got nothing in one delivery poll")
			return ""
		}
	}

	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir, AllowHosts: "127.0.0.1/32", Clock: clk})
	graph := `{"nodes":[{"id":"start","type":"start"},
		{"id":"notify","type":"webhook","config":{"url":"` + partner.URL + `/hook","method":"POST","async":true,
		 "headers":{"X-Token":"hook-secret-value"},"bodyTemplate":"{\"said\": \"{{userMessage}}\"}"}},
		{"id":"ok","type":"response","config":{"messageTemplate":"queued"}}],
		"edges":[{"id":"e1","source":"start","target":"notify"},{"id":"e2","source":"notify","target":"ok"}]}`
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "hook", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "hook", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)
	if m := send(t, ts, s.StartSession.ID, "hi").SendMessage.Messages; len(m) != 1 || m[0].Text != "queued" {
		t.Fatalf("turn: %+v", m)
	}
	if first := poll(ts); first != `/hook {"said":"hi"} hook-secret-value` {
		t.Fatalf("delivered %q", first)
	}
	ts.stop(t)

	// A request left in the queue while no server runs.
	st := reopen(t, dir)
	if _, err := st.EnqueueOutbound(context.Background(), store.OutboundRequest{WorkspaceID: 1, NodeID: "notify",
		Method: "POST", URL: partner.URL + "/later", Body: []byte(`{"n":2}`), CreatedAt: clk.Now()}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ts = startServer(t, Config{DataDir: dir, AllowHosts: "127.0.0.1/32", Clock: clk})
	if later := poll(ts); later != `/later {"n":2} ` {
		t.Fatalf("after the restart the partner got %q", later)
	}
}

// reopen opens a stopped server's store.
func reopen(t *testing.T, dir string) store.Store {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(dir, "wetel.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestAsyncWebhookRetriesAnUnsentRequestWithDoublingWaits: a request that
// never reached the service (the port refuses connections) is tried again
// at the first delivery poll 2 s later, then 4 s after that, and fails
// after the third attempt, by the server's clock.
func TestAsyncWebhookRetriesAnUnsentRequestWithDoublingWaits(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/hook"
	ln.Close()
	clk := clock.NewFake(time.Now())
	ts := startServer(t, Config{AllowHosts: "127.0.0.1/32", Clock: clk})
	graph := `{"nodes":[{"id":"start","type":"start"},
		{"id":"notify","type":"webhook","config":{"url":"` + refused + `","method":"POST","async":true}},
		{"id":"ok","type":"response","config":{"messageTemplate":"queued"}}],
		"edges":[{"id":"e1","source":"start","target":"notify"},{"id":"e2","source":"notify","target":"ok"}]}`
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "hook", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "hook", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)
	runs := send(t, ts, s.StartSession.ID, "hi").SendMessage.Runs
	if len(runs) != 1 {
		t.Fatalf("runs: %+v", runs)
	}
	queued := func() store.OutboundRequest {
		t.Helper()
		rs, err := ts.s.store.OutboundByRun(context.Background(), 1, int64(runs[0].ID))
		if err != nil || len(rs) != 1 {
			t.Fatalf("the run's queued requests: %+v, %v", rs, err)
		}
		return rs[0]
	}
	// The store keeps milliseconds.
	after := func(d time.Duration) time.Time { return time.UnixMilli(clk.Now().Add(d).UnixMilli()) }

	ts.advance(t, clk, outboxEvery)
	want := after(2 * time.Second)
	if r := queued(); r.Status != store.OutboundPending || r.Attempts != 1 || !r.NextAttemptAt.Equal(want) {
		t.Fatalf("after the first attempt: %s, %d attempts, next at %v; want PENDING, 1, %v", r.Status, r.Attempts, r.NextAttemptAt, want)
	}
	ts.advance(t, clk, 2*time.Second-time.Millisecond)
	if r := queued(); r.Attempts != 1 {
		t.Fatalf("tried again %d times before its 2 s were up", r.Attempts-1)
	}
	ts.advance(t, clk, outboxEvery) // the next poll finds it due
	want = after(4 * time.Second)
	if r := queued(); r.Status != store.OutboundPending || r.Attempts != 2 || !r.NextAttemptAt.Equal(want) {
		t.Fatalf("after the second attempt: %s, %d attempts, next at %v; want PENDING, 2, %v", r.Status, r.Attempts, r.NextAttemptAt, want)
	}
	ts.advance(t, clk, 4*time.Second)
	if r := queued(); r.Status != store.OutboundFailed || r.Attempts != 3 {
		t.Errorf("after the third attempt: %s, %d attempts; want FAILED, 3", r.Status, r.Attempts)
	}
}

// TestAsyncWebhookInFlightAtACrashIsNotResent: a worker claimed two
// requests and stopped before recording their attempts (a SIGKILL mid
// send). Once their lease has passed, the next worker sends the idempotent
// one again and records the other as of unknown outcome, never sending it
// twice (seed 001's safe-resend rule). The partner counts what it got.
func TestAsyncWebhookInFlightAtACrashIsNotResent(t *testing.T) {
	t.Parallel()
	got := make(chan string, 4)
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Method + " " + r.URL.Path
	}))
	defer partner.Close()
	clk := clock.NewFake(time.Now())
	ts := startServer(t, Config{AllowHosts: "127.0.0.1/32", Clock: clk})
	ctx := context.Background()
	st := ts.s.store
	keyed, err := ts.s.callouts.box.SealMap(map[string]string{"Idempotency-Key": "order-42"}, outboxAAD(1))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.CreateSession(ctx, store.Session{WorkspaceID: 1, AgentID: 1})
	if err != nil {
		t.Fatal(err)
	}
	run, _, err := st.StartTurn(ctx, store.TurnStart{Run: store.Run{WorkspaceID: 1, SessionID: sess.ID, Version: 1}})
	if err != nil {
		t.Fatal(err)
	}
	post, err := st.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: 1, RunID: run.ID, NodeID: "n", Method: "POST", URL: partner.URL + "/post", CreatedAt: clk.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: 1, NodeID: "k", Method: "POST", URL: partner.URL + "/keyed",
		Headers: keyed, CreatedAt: clk.Now()}); err != nil {
		t.Fatal(err)
	}
	// The worker that died: it claimed both, and that is all it did.
	if claimed, err := st.ClaimOutbound(ctx, clk.Now(), outboxLease, 2, nil); err != nil || len(claimed) != 2 {
		t.Fatalf("claiming as the crashed worker: %d, %v", len(claimed), err)
	}
	ts.advance(t, clk, outboxEvery)
	if len(got) != 0 {
		t.Fatalf("sent while still leased: %q", <-got)
	}
	ts.advance(t, clk, outboxLease)
	if r := <-got; r != "POST /keyed" {
		t.Fatalf("after the lease the partner got %q, want the idempotent request", r)
	}
	if len(got) != 0 {
		t.Fatalf("the request that may have arrived was sent again: %q", <-got)
	}
	rs, err := st.OutboundByRun(ctx, 1, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rs {
		if r.ID == post.ID {
			found = true
			if r.Status != store.OutboundFailed || r.ErrorClass != "UNKNOWN" {
				t.Errorf("the unsent-again request: %s %s, want FAILED UNKNOWN", r.Status, r.ErrorClass)
			}
		}
	}
	if !found {
		t.Errorf("request %d is not among the queue's %d", post.ID, len(rs))
	}
}

// TestAsyncWebhooksOfOneWorkspaceDoNotHoldUpAnother: six requests of one
// workspace hang at a slow partner; a request of another workspace queued
// behind them is sent at once, while they are still in flight.
func TestAsyncWebhooksOfOneWorkspaceDoNotHoldUpAnother(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	slowIn, fast := make(chan struct{}, 8), make(chan struct{}, 1)
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			slowIn <- struct{}{}
			<-release
			return
		}
		fast <- struct{}{}
	}))
	defer partner.Close()
	defer close(release)
	clk := clock.NewFake(time.Now())
	ts := startServer(t, Config{AllowHosts: "127.0.0.1/32", Clock: clk})
	ctx := context.Background()
	st := ts.s.store
	quiet, err := st.CreateWorkspace(ctx, "Quiet")
	if err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if _, err := st.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: 1, NodeID: "n", Method: "POST", URL: partner.URL + "/slow", CreatedAt: clk.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: quiet.ID, NodeID: "n", Method: "POST", URL: partner.URL + "/fast", CreatedAt: clk.Now()}); err != nil {
		t.Fatal(err)
	}
	bctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := clk.BlockUntil(bctx, backgroundLoops); err != nil {
		t.Fatal(err)
	}
	clk.Advance(outboxEvery)
	select {
	case <-fast:
	case <-bctx.Done():
		t.Fatal("the quiet workspace's request waited behind the slow ones")
	}
	// The slow workspace has its share of the workers, no more.
	for range outboxPerWorkspace {
		<-slowIn
	}
	if n := len(slowIn); n != 0 {
		t.Errorf("%d more slow requests in flight than one workspace's share", n)
	}
}
