package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/wetel/wetel/outbound"
)

// The log explains a failed run (one line naming the run, workflow, node,
// error class and the redacted message), a refused outbound call, and at
// debug level each turn; and it never holds a secret: not an action's
// header, not one the partner echoes into its error, not one in a refused
// URL's query (PLATFORM §11: credentials are never in logs).
func TestLogExplainsFailuresWithoutSecrets(t *testing.T) {
	t.Parallel()
	const (
		headerSecret = "Bearer hdr-planted-5e1f9a7c3b"
		querySecret  = "qry-planted-8d2c4b6a1e"
		hookSecret   = "hook-planted-3a9e7c5b1d"
	)
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The partner echoes the credential it was sent into its error.
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":"invalid token ` + r.Header.Get("Authorization") + `"}`))
	}))
	defer partner.Close()
	var logs lockedBuffer
	ts := startServer(t, Config{AllowHosts: "127.0.0.1/32",
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	do(t, ts.c, `mutation($u: String!, $h: String!) { createCustomAction(input: {id: 50, name: "crm", url: $u,
		headers: [{name: "Authorization", value: $h}]}) { id } }`,
		map[string]any{"u": partner.URL + "/contacts", "h": headerSecret}, nil)
	graph := `{"nodes":[{"id":"start","type":"start"},
		{"id":"hook","type":"webhook","config":{"url":"http://10.9.8.7/hook?token=` + querySecret + `","method":"POST",
		 "headers":{"X-Token":"` + hookSecret + `"}}},
		{"id":"call","type":"action","config":{"customActionId":50}}],
		"edges":[{"id":"e1","source":"start","target":"hook"},{"id":"e2","source":"hook","target":"call","label":"success"},
		{"id":"e3","source":"hook","target":"call","label":"failure"}]}`
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "crm", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "crm", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)
	var turn struct {
		SendMessage struct {
			Runs []struct {
				ID     int
				Status string
			}
		}
	}
	do(t, ts.c, `mutation($s: Int!) { sendMessage(sessionId: $s, text: "file it") { runs { id status } } }`, map[string]any{"s": s.StartSession.ID}, &turn)
	if r := turn.SendMessage.Runs; len(r) != 1 || r[0].Status != "FAILED" {
		t.Fatalf("runs %+v, want one FAILED", r)
	}
	run := itoa(turn.SendMessage.Runs[0].ID)
	log := logs.String()
	want := []struct{ line string }{
		{`level=WARN msg="run failed" run=` + run + ` workflow=` + itoa(wf.CreateWorkflow.ID) + ` version=1 workspace=1 session=` + itoa(s.StartSession.ID) +
			` node=call nodeType=action errorClass=REJECTED error="action node \"call\": custom action 50 (crm): POST ` + partner.URL + `/contacts answered HTTP 401 Unauthorized: {\"error\":\"invalid token [REDACTED]\"}"`},
		{`level=WARN msg="outbound call refused" url=http://10.9.8.7/hook?… host=10.9.8.7 reason="10.9.8.7 is a private address (RFC 1918)`},
		{`level=DEBUG msg=turn workspace=1 session=` + itoa(s.StartSession.ID) + ` message=`},
	}
	for _, w := range want {
		if n := strings.Count(log, w.line); n != 1 {
			t.Errorf("the log has %d lines with\n  %s\nwant 1; the log:\n%s", n, w.line, log)
		}
	}
	if !strings.Contains(log, ` runs=`+run+`:FAILED `) {
		t.Errorf("the turn line does not list the run: %s", log)
	}
	for _, secret := range []string{"hdr-planted-5e1f9a7c3b", querySecret, hookSecret} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds the secret %q:\n%s", secret, log)
		}
	}
}

// A refusal made under a traced node names its span, so the log line and
// the trace meet; the URL's query, where a credential may sit, is left out.
func TestRefusedLineNamesTheSpan(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	s := &Server{log: slog.New(slog.NewTextHandler(&logs, nil))}
	tid, _ := trace.TraceIDFromHex("0af7651916cd43dd8448eb211c80319c")
	sid, _ := trace.SpanIDFromHex("b7ad6b7169203331")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid}))
	s.logRefused(ctx, &outbound.RefusedError{URL: "http://user:pw@10.0.0.1/x?token=secret-in-query", Host: "10.0.0.1", Reason: "10.0.0.1 is a private address (RFC 1918)"})
	want := `level=WARN msg="outbound call refused" url=http://10.0.0.1/x?… host=10.0.0.1 reason="10.0.0.1 is a private address (RFC 1918)" traceId=0af7651916cd43dd8448eb211c80319c spanId=b7ad6b7169203331`
	if got := logs.String(); !strings.Contains(got, want) || strings.Contains(got, "secret-in-query") || strings.Contains(got, "pw") {
		t.Errorf("log line\n%s\nwant it to contain\n%s", got, want)
	}
}
