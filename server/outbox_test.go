package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
)

// TestAsyncWebhookIsDurable queues an async webhook through a turn and sees
// it delivered, then puts a request in the queue of a stopped server and
// sees the next start deliver it: a queued request survives a restart.
func TestAsyncWebhookIsDurable(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.URL.Path+" "+string(b)+" "+r.Header.Get("X-Token"))
		mu.Unlock()
	}))
	defer partner.Close()
	received := func(n int) []string {
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			out := append([]string(nil), got...)
			mu.Unlock()
			if len(out) >= n {
				return out
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("the partner got %v, want %d requests", got, n)
		return nil
	}

	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir, AllowHosts: "127.0.0.1/32"})
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
	if first := received(1); first[0] != `/hook {"said":"hi"} hook-secret-value` {
		t.Fatalf("delivered %q", first[0])
	}
	ts.stop(t)

	// A request left in the queue while no server runs.
	st := reopen(t, dir)
	if _, err := st.EnqueueOutbound(context.Background(), store.OutboundRequest{WorkspaceID: 1, NodeID: "notify",
		Method: "POST", URL: partner.URL + "/later", Body: []byte(`{"n":2}`)}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	startServer(t, Config{DataDir: dir, AllowHosts: "127.0.0.1/32"})
	if all := received(2); all[1] != `/later {"n":2} ` {
		t.Fatalf("after the restart the partner got %q", all[1])
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
