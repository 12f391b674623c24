package webhook_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
	"github.com/wetel/wetel/outbound"
)

// hookGraph is start → hook → ok / sorry, sorry saying the error code.
func hookGraph(cfg string) string {
	return fmt.Sprintf(`{"nodes":[
		{"id":"s","type":"start","label":"s","config":{}},
		{"id":"hook","type":"webhook","label":"hook","config":%s},
		{"id":"ok","type":"response","label":"ok","config":{"messageTemplate":"ok"}},
		{"id":"sorry","type":"response","label":"sorry","config":{"messageTemplate":"{{_lastNodeErrorCode}}"}}],
	"edges":[{"id":"e1","source":"s","target":"hook"},
		{"id":"e2","source":"hook","target":"ok","label":"success"},
		{"id":"e3","source":"hook","target":"sorry","label":"failure"}]}`, cfg)
}

func run(t *testing.T, doc string, svc *node.Services, vars map[string]any) *engine.Result {
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
	return eng.Run(context.Background(), p, engine.Input{Services: svc, Vars: vars})
}

func trace(res *engine.Result) string {
	parts := make([]string, len(res.NodeTrace))
	for i, r := range res.NodeTrace {
		parts[i] = r.NodeID + ":" + r.Status
	}
	return strings.Join(parts, " ")
}

// syncBuffer is a log sink the outbox's goroutines may write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func guarded(t *testing.T) *outbound.Client {
	t.Helper()
	allow, _ := outbound.ParseAllowlist("127.0.0.1/32")
	c, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// With async: true the node completes at once and the outbox sends the
// request in the background; its log says what became of it without the
// credentials, even when the partner echoes them back.
func TestAsyncWebhookDelivered(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release // the run finishes while the partner is still thinking
		body, _ := io.ReadAll(r.Body)
		got <- r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get("Content-Type") + " " + string(body)
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprintf(w, "upstream refused token %s", r.Header.Get("X-Hook-Token"))
	}))
	defer srv.Close()
	logs := &syncBuffer{}
	outbox := callout.NewMemoryOutbox(guarded(t), slog.New(slog.NewTextHandler(logs, nil)))
	delivered := make(chan callout.Delivery, 1)
	outbox.Delivered = func(d callout.Delivery) { delivered <- d }
	svc := node.NewServices(callout.HTTPKey.With(guarded(t)), callout.OutboxKey.With(outbox))
	cfg := fmt.Sprintf(`{"url":"%s/hooks/{{orderId}}","headers":{"X-Hook-Token":"hook-secret-5521"},"bodyTemplate":"{\"text\":\"{{userMessage}}\"}","async":true,"timeoutMs":5000}`, srv.URL)
	res := run(t, hookGraph(cfg), svc, map[string]any{"userMessage": "hi", "orderId": "A 1"})
	if trace(res) != "s:COMPLETED hook:COMPLETED ok:COMPLETED" {
		t.Fatalf("trace %s (%v)", trace(res), res.Vars["_lastNodeError"])
	}
	close(release)
	select {
	case r := <-got:
		if r != `POST /hooks/A%201 application/json {"text":"hi"}` {
			t.Errorf("partner got %s", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the outbox never sent the request")
	}
	if d := <-delivered; d.NodeID != "hook" || d.HTTPStatus != 502 || d.ErrorClass != "UPSTREAM_ERROR" {
		t.Errorf("delivery %+v", d)
	}
	if err := outbox.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l := logs.String(); !strings.Contains(l, "async webhook failed") || strings.Contains(l, "hook-secret-5521") {
		t.Errorf("log: %s", l)
	}
	if err := outbox.Enqueue(context.Background(), callout.OutboundRequest{}); err == nil {
		t.Error("a closed outbox took a request")
	}
}

// Seed: "With async: true, only a failure before the request is sent"
// fails the node: a refused URL fails it, and nothing is queued.
func TestAsyncWebhookRefusedURLFails(t *testing.T) {
	t.Parallel()
	outbox := callout.NewMemoryOutbox(guarded(t), nil)
	var queued atomic.Int32
	outbox.Delivered = func(callout.Delivery) { queued.Add(1) }
	svc := node.NewServices(callout.HTTPKey.With(guarded(t)), callout.OutboxKey.With(outbox))
	for _, url := range []string{"http://10.1.2.3/hooks", "http://169.254.169.254/latest/meta-data/", "http://127.0.0.2:9/x"} {
		res := run(t, hookGraph(fmt.Sprintf(`{"url":%q,"async":true}`, url)), svc, nil)
		row := res.NodeTrace[1]
		if trace(res) != "s:COMPLETED hook:FAILED_HANDLED sorry:COMPLETED" || row.ErrorClass != "UNREACHABLE" || row.RetryOutcome != "refused" {
			t.Errorf("%s: trace %s, row %+v", url, trace(res), row)
		}
	}
	outbox.Close(context.Background())
	if queued.Load() != 0 {
		t.Errorf("%d refused requests were sent", queued.Load())
	}
}

// A synchronous webhook writes {status, headers, data}; a webhook never
// retries without a policy.
func TestWebhookSync(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Query().Get("fail") == "1" {
			w.WriteHeader(503)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"state":"shipped","q":%q}`, r.URL.Query().Get("q"))
	}))
	defer srv.Close()
	svc := node.NewServices(callout.HTTPKey.With(guarded(t)))
	res := run(t, hookGraph(fmt.Sprintf(`{"url":"%s/status?q={{userMessage}}","method":"GET","outputVar":"st"}`, srv.URL)), svc, map[string]any{"userMessage": "a&b=c"})
	st, _ := res.Vars["st"].(map[string]any)
	data, _ := st["data"].(map[string]any)
	if trace(res) != "s:COMPLETED hook:COMPLETED ok:COMPLETED" || data["state"] != "shipped" || data["q"] != "a&b=c" {
		t.Fatalf("trace %s, st %v", trace(res), st)
	}
	hits.Store(0)
	res = run(t, hookGraph(fmt.Sprintf(`{"url":"%s/status?fail=1","method":"GET"}`, srv.URL)), svc, nil)
	if row := res.NodeTrace[1]; row.ErrorClass != "UPSTREAM_ERROR" || row.RetryOutcome != "not_retryable" || hits.Load() != 1 {
		t.Errorf("row %+v, %d hits", row, hits.Load())
	}
}

// Without Services a webhook says what is missing; it never panics.
func TestWebhookWithoutServices(t *testing.T) {
	t.Parallel()
	res := run(t, hookGraph(`{"url":"https://hooks.example.com/x"}`), nil, nil)
	msg, _ := res.Vars["_lastNodeError"].(string)
	if res.Vars["_lastNodeErrorCode"] != "UNKNOWN" || !strings.Contains(msg, `webhook node "hook": outbound HTTP calls are not available here`) {
		t.Errorf("code %v, message %q", res.Vars["_lastNodeErrorCode"], msg)
	}
	res = run(t, hookGraph(`{"url":"https://hooks.example.com/x","async":true}`), node.NewServices(callout.HTTPKey.With(guarded(t))), nil)
	if msg, _ := res.Vars["_lastNodeError"].(string); !strings.Contains(msg, "async webhooks need an outbox") {
		t.Errorf("message %q", msg)
	}
}

// The url is checked when the graph is saved: a value may not supply the
// scheme and host unescaped by accident, and blocks are refused.
func TestWebhookURLChecks(t *testing.T) {
	t.Parallel()
	spec, _ := node.Default.Lookup("webhook")
	for src, want := range map[string]string{
		"{{base}}/orders":                               "write the URL's scheme and host out",
		"https://x.example/{{#if a}}b{{/if}}":           "block helpers are not supported in a URL",
		"{{{base}}}/orders":                             "",
		"https://{{tenant}}.example.com/{{id}}?q={{q}}": "",
	} {
		errs := node.ValidateConfig(spec, map[string]any{"url": src})
		got := ""
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", src, got, want)
		}
	}
}
