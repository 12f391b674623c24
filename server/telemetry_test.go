package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/wetel/wetel/internal/testpeer"
	"github.com/wetel/wetel/telemetry"
)

// otlpReceiver is an OTLP/HTTP endpoint on 127.0.0.1 that decodes what the
// exporter sends (protobuf ExportTraceServiceRequest) and keeps the spans.
type otlpReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	spans []*tracepb.Span
	svc   []string
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	r := &otlpReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		var msg coltrace.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &msg)
		}
		if req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("OTLP request %s %s (%s): %v", req.Method, req.URL.Path, req.Header.Get("Content-Type"), err)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		for _, rs := range msg.ResourceSpans {
			for _, a := range rs.GetResource().GetAttributes() {
				if a.Key == "service.name" {
					r.svc = append(r.svc, a.GetValue().GetStringValue())
				}
			}
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
		r.mu.Unlock()
		out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *otlpReceiver) all() []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*tracepb.Span(nil), r.spans...)
}

// attrs flattens a span's attributes to strings.
func attrs(s *tracepb.Span) map[string]string {
	out := map[string]string{}
	for _, a := range s.Attributes {
		v := a.GetValue()
		switch {
		case v.GetStringValue() != "":
			out[a.Key] = v.GetStringValue()
		case v.GetArrayValue() != nil:
			b, _ := json.Marshal(v.GetArrayValue().Values)
			out[a.Key] = string(b)
		default:
			b, _ := json.Marshal(v.GetIntValue())
			out[a.Key] = string(b)
		}
	}
	return out
}

// With tracing on, a turn is one span, each dispatch a child span with its
// node type, status, error class and attempts, and an outbound call
// carries the W3C trace context of its node's span, so the partner's
// traces join the turn; no span holds a credential of the call. With
// tracing off, a call carries no traceparent.
func TestOpenTelemetrySpans(t *testing.T) {
	t.Parallel()
	const spanSecret = "span-planted-6b2e9d4f1a"
	var mu sync.Mutex
	var parents []string
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		parents = append(parents, r.Header.Get("Traceparent"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	}))
	defer partner.Close()
	recv := newOTLPReceiver(t)
	tracing, err := telemetry.New(context.Background(), otlptracehttp.WithEndpointURL(recv.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	defer tracing.Shutdown(context.Background())

	graph := `{"nodes":[{"id":"start","type":"start"},
		{"id":"lookup","type":"action","config":{"customActionId":60,"outputVar":"found"}},
		{"id":"down","type":"action","config":{"customActionId":61}},
		{"id":"sorry","type":"response","config":{"messageTemplate":"{{_lastNodeErrorPublic}}"}}],
		"edges":[{"id":"e1","source":"start","target":"lookup"},{"id":"e2","source":"lookup","target":"down"},
		{"id":"e3","source":"down","target":"sorry","label":"failure"},{"id":"e4","source":"down","target":"sorry","label":"success"}]}`
	setup := func(ts *testServer) int {
		do(t, ts.c, `mutation($u: String!, $h: String!) { createCustomAction(input: {id: 60, name: "lookup", url: $u, method: "GET",
			headers: [{name: "Authorization", value: $h}]}) { id } }`, map[string]any{"u": partner.URL + "/orders", "h": "Bearer " + spanSecret}, nil)
		do(t, ts.c, `mutation($u: String!, $h: String!) { createCustomAction(input: {id: 61, name: "down", url: $u,
			headers: [{name: "X-Api-Key", value: $h}]}) { id } }`, map[string]any{"u": testpeer.ClosedPort(t) + "/x?order=" + spanSecret, "h": spanSecret}, nil)
		var wf struct{ CreateWorkflow struct{ ID int } }
		do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "traced", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
		do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
		var ag struct{ CreateAgent struct{ ID int } }
		do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "traced", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
		var s struct{ StartSession struct{ ID int } }
		do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)
		if m := send(t, ts, s.StartSession.ID, "where is it?").SendMessage.Messages; len(m) != 1 || m[0].Text != "The service could not be reached." {
			t.Fatalf("turn said %+v", m)
		}
		return s.StartSession.ID
	}

	// Off: no span source, no trace context sent.
	setup(startServer(t, Config{AllowHosts: "127.0.0.1/32"}))
	mu.Lock()
	if len(parents) != 1 || parents[0] != "" {
		t.Fatalf("with tracing off the partner got traceparent %q", parents)
	}
	parents = nil
	mu.Unlock()

	traced := startServer(t, Config{AllowHosts: "127.0.0.1/32", Tracing: tracing})
	session := setup(traced)
	// A caller's own trace context is continued: its turn is a child of
	// the caller's span.
	const callerTrace, callerSpan = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	req, err := http.NewRequest(http.MethodPost, traced.url+"/graphql", strings.NewReader(
		`{"query":"mutation { sendMessage(sessionId: `+itoa(session)+`, text: \"hi\") { runs { id } } }"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("traced request: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if err := tracing.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := recv.all()
	var turnSpan, callerTurn *tracepb.Span
	nodes := map[string]*tracepb.Span{}
	for _, s := range spans {
		switch {
		case s.Name == "turn" && hex.EncodeToString(s.TraceId) == callerTrace:
			callerTurn = s
			continue
		case s.Name == "turn":
			if turnSpan != nil {
				t.Fatalf("two turn spans")
			}
			turnSpan = s
		case strings.HasPrefix(s.Name, "node ") && hex.EncodeToString(s.TraceId) != callerTrace:
			nodes[attrs(s)["wetel.node.id"]] = s
		}
	}
	if turnSpan == nil || len(nodes) != 4 {
		t.Fatalf("spans %v, want a turn and 4 nodes", spans)
	}
	if callerTurn == nil || hex.EncodeToString(callerTurn.ParentSpanId) != callerSpan {
		t.Errorf("the caller's turn does not continue its trace: %v", callerTurn)
	}
	ta := attrs(turnSpan)
	if ta["wetel.session"] != itoa(session) || ta["wetel.run.status"] != "COMPLETED" || turnSpan.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("turn span %v %v", ta, turnSpan.Kind)
	}
	want := map[string]map[string]string{
		"start":  {"wetel.node.type": "start", "wetel.node.status": "COMPLETED", "wetel.attempts": "1"},
		"lookup": {"wetel.node.type": "action", "wetel.node.status": "COMPLETED", "wetel.attempts": "1"},
		"down": {"wetel.node.type": "action", "wetel.node.status": "FAILED_HANDLED", "wetel.error_class": "UNREACHABLE",
			"wetel.attempts": "3", "wetel.retry_outcome": "exhausted"},
		"sorry": {"wetel.node.type": "response", "wetel.node.status": "COMPLETED", "wetel.attempts": "1"},
	}
	for id, w := range want {
		s := nodes[id]
		if string(s.TraceId) != string(turnSpan.TraceId) || string(s.ParentSpanId) != string(turnSpan.SpanId) {
			t.Errorf("%s: not a child of the turn span", id)
		}
		got := attrs(s)
		for k, v := range w {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q (all: %v)", id, k, got[k], v, got)
			}
		}
		if s.Name != "node "+w["wetel.node.type"] {
			t.Errorf("%s: span named %q", id, s.Name)
		}
		wantErr := w["wetel.node.status"] == "FAILED_HANDLED"
		if (s.Status.GetCode() == tracepb.Status_STATUS_CODE_ERROR) != wantErr {
			t.Errorf("%s: status %v", id, s.Status)
		}
	}
	for _, s := range spans {
		if b, _ := proto.Marshal(s); strings.Contains(string(b), spanSecret) {
			t.Errorf("span %s holds the action's credential", s.Name)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	wantParent := "00-" + hex.EncodeToString(turnSpan.TraceId) + "-" + hex.EncodeToString(nodes["lookup"].SpanId) + "-01"
	if len(parents) != 2 || parents[0] != wantParent || !strings.HasPrefix(parents[1], "00-"+callerTrace+"-") {
		t.Errorf("the partner got traceparent %q, want %q (the lookup node's span), then one in the caller's trace", parents, wantParent)
	}
	recv.mu.Lock()
	if len(recv.svc) == 0 || recv.svc[0] != "wetel" {
		t.Errorf("service.name %q", recv.svc)
	}
	recv.mu.Unlock()
}
