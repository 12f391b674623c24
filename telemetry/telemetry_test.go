package telemetry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"

	"github.com/wetel/wetel/turn"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// Tracing is off unless an OTLP endpoint is set, and a setting it cannot
// honour is an error naming the variable, not a silent fallback.
func TestFromEnvOffAndRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		err  string
	}{
		{"nothing set", nil, ""},
		{"only other OTEL settings", map[string]string{"OTEL_SERVICE_NAME": "x", EnvProtocol: "http/protobuf"}, ""},
		{"disabled", map[string]string{EnvEndpoint: "http://127.0.0.1:4318", EnvSDKDisabled: "true"}, ""},
		{"grpc", map[string]string{EnvEndpoint: "http://127.0.0.1:4317", EnvProtocol: "grpc"}, `OTEL_EXPORTER_OTLP_PROTOCOL: only http/protobuf is supported, not "grpc"`},
		{"no scheme", map[string]string{EnvEndpoint: "127.0.0.1:4318"}, `OTEL_EXPORTER_OTLP_ENDPOINT: "127.0.0.1:4318/v1/traces" must be an http:// or https:// URL`},
	}
	for _, tc := range cases {
		tr, err := FromEnv(context.Background(), env(tc.env))
		if tc.err == "" {
			if tr != nil || err != nil {
				t.Errorf("%s: %v, %v; want off", tc.name, tr, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.err {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.err)
		}
	}
	var off *Tracing
	if off.Turns() != nil || off.Propagate() != nil || off.ForceFlush(context.Background()) != nil || off.Shutdown(context.Background()) != nil {
		t.Error("a nil Tracing is not a no-op")
	}
}

// The general endpoint gets /v1/traces appended; the traces endpoint is
// used as it is (the OpenTelemetry specification's rule).
func TestFromEnvEndpoints(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
	}))
	defer srv.Close()
	for _, tc := range []struct {
		env  map[string]string
		path string
	}{
		{map[string]string{EnvEndpoint: srv.URL + "/"}, "/v1/traces"},
		{map[string]string{EnvEndpoint: srv.URL + "/ignored", EnvTracesEndpoint: srv.URL + "/custom/path"}, "/custom/path"},
	} {
		mu.Lock()
		paths = nil
		mu.Unlock()
		tr, err := FromEnv(context.Background(), env(tc.env))
		if err != nil || tr == nil {
			t.Fatalf("%v: %v, %v", tc.env, tr, err)
		}
		hooks := tr.Turns()
		ctx := hooks.StartTurn(context.Background(), 1, 2)
		hooks.EndTurn(ctx, turn.TurnResult{}, nil)
		if err := tr.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if len(paths) != 1 || paths[0] != tc.path {
			t.Errorf("%v: exported to %v, want %s", tc.env, paths, tc.path)
		}
		mu.Unlock()
	}
}

// Propagate writes a W3C traceparent for the span in ctx, and nothing
// without one.
func TestPropagate(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	tr, err := New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Shutdown(context.Background())
	h := http.Header{}
	tr.Propagate()(context.Background(), h)
	if len(h) != 0 {
		t.Errorf("no span, yet headers %v", h)
	}
	ctx := tr.Turns().StartNode(context.Background(), "n", "action")
	tr.Propagate()(ctx, h)
	if p := h.Get("Traceparent"); !strings.HasPrefix(p, "00-") || len(p) != 55 || !strings.HasSuffix(p, "-01") {
		t.Errorf("traceparent %q", p)
	}
}
