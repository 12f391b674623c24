package mcpclient

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// roundTripFunc records the requests a credentialTransport passes on.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestCredentialHeadersStayWithTheirOrigin(t *testing.T) {
	t.Parallel()
	var seen *http.Request
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = r
		return &http.Response{StatusCode: http.StatusTeapot, Body: http.NoBody}, nil
	})
	rt := &credentialTransport{base: base, origin: origin("https://MCP.example.com/mcp"),
		headers: map[string]string{"Authorization": "Bearer tok-1234", "Mcp-Session-Id": "forged"}}
	tests := []struct {
		url      string
		wantAuth string
	}{
		{"https://mcp.example.com/mcp", "Bearer tok-1234"},
		{"https://mcp.example.com/other/path?x=1", "Bearer tok-1234"},
		// A redirect elsewhere, or to plain http, must not carry them.
		{"https://evil.example.net/mcp", ""},
		{"http://mcp.example.com/mcp", ""},
		{"https://mcp.example.com:8443/mcp", ""},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(http.MethodPost, tt.url, nil)
		req.Header.Set("Mcp-Session-Id", "real")
		ctx, rec := withStatus(req.Context())
		if _, err := rt.RoundTrip(req.WithContext(ctx)); err != nil {
			t.Fatal(err)
		}
		if got := seen.Header.Get("Authorization"); got != tt.wantAuth {
			t.Errorf("%s: Authorization = %q, want %q", tt.url, got, tt.wantAuth)
		}
		if got := seen.Header.Get("Mcp-Session-Id"); got != "real" {
			t.Errorf("%s: Mcp-Session-Id = %q; a credential must not replace a protocol header", tt.url, got)
		}
		if req.Header.Get("Authorization") != "" {
			t.Errorf("%s: the caller's request was modified", tt.url)
		}
		if rec.get() != http.StatusTeapot {
			t.Errorf("%s: recorded status %d, want 418", tt.url, rec.get())
		}
	}
}

func TestArgumentViolations(t *testing.T) {
	t.Parallel()
	schema, err := compileSchema(json.RawMessage(`{
		"type": "object",
		"properties": {
			"order": {"type": "object", "properties": {"qty": {"type": "integer", "minimum": 1}}},
			"tier": {"enum": ["gold", "silver"]}
		},
		"required": ["order"]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"order": map[string]any{"qty": 2}, "tier": "gold"}, ""},
		{map[string]any{}, "at (root): missing property 'order'"},
		{map[string]any{"order": map[string]any{"qty": 0}}, "at /order/qty: minimum: got 0, want 1"},
		{map[string]any{"order": map[string]any{"qty": 1.5}}, "at /order/qty: got number, want integer"},
		{map[string]any{"order": map[string]any{}, "tier": "bronze"}, "at /tier: value must be one of 'gold', 'silver'"},
	}
	for _, tt := range tests {
		got, err := checkArgs(schema, tt.args)
		if err != nil || got != tt.want {
			t.Errorf("checkArgs(%v) = %q, %v; want %q", tt.args, got, err, tt.want)
		}
	}
}

func TestSchemaRefusesExternalReferences(t *testing.T) {
	t.Parallel()
	for _, ref := range []string{"file:///etc/passwd", "https://example.com/schema.json", "/etc/passwd"} {
		_, err := compileSchema(json.RawMessage(`{"$ref": "` + ref + `"}`))
		// The compiler keeps the loader's error as text only.
		if err == nil || !strings.Contains(err.Error(), errExternalRef.Error()) {
			t.Errorf("compiling a schema with $ref %s = %v, want errExternalRef", ref, err)
		}
	}
	if _, err := compileSchema(json.RawMessage(`{"$defs": {"q": {"type": "integer"}}, "properties": {"qty": {"$ref": "#/$defs/q"}}}`)); err != nil {
		t.Errorf("a local $ref must compile: %v", err)
	}
}

func TestSameSchemaIgnoresKeyOrder(t *testing.T) {
	t.Parallel()
	a := json.RawMessage(`{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`)
	b := json.RawMessage(`{ "properties": {"a": {"type": "string"}}, "required": ["a"], "type": "object" }`)
	c := json.RawMessage(`{"type":"object","required":["a","b"],"properties":{"a":{"type":"string"}}}`)
	if !sameSchema(a, b) {
		t.Error("reordered schema reported as changed")
	}
	if sameSchema(a, c) {
		t.Error("schema with a new required property reported as the same")
	}
}

func TestRedactKeepsTheChain(t *testing.T) {
	t.Parallel()
	c := newConn(nil, Connector{ID: 1, Transport: TransportHTTP, URL: "http://u:pa55word@host/mcp?token=q-secret-1",
		Headers: map[string]string{"Authorization": "Bearer h-secret-2"}, Env: map[string]string{"KEY": "e-secret-3"}})
	cause := syscall.ECONNREFUSED
	err := c.redact(errors.Join(cause, errors.New("pa55word q-secret-1 h-secret-2 e-secret-3")))
	for _, secret := range []string{"pa55word", "q-secret-1", "h-secret-2", "e-secret-3"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("redacted error %q still shows %s", err, secret)
		}
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Error("redacting lost the cause for errors.Is")
	}
}

func TestMinimalEnvLetsTheConnectorWin(t *testing.T) {
	t.Setenv("PATH", "/engine/bin")
	t.Setenv("WETEL_ENGINE_SECRET", "engine-only")
	env := minimalEnv(map[string]string{"PATH": "/connector/bin", "TOKEN": "t"})
	if slices.Contains(env, "PATH=/engine/bin") || !slices.Contains(env, "PATH=/connector/bin") {
		t.Errorf("env = %v, want the connector's PATH only", env)
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "WETEL_ENGINE_SECRET=") {
			t.Errorf("env = %v passes on the engine's own variables", env)
		}
	}
}

func TestClipKeepsCharacters(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("é", maxErrorText)
	got := clip(s)
	if !utf8.ValidString(got) || len(got) > maxErrorText+len("…") {
		t.Errorf("clip gave %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	if clip("short") != "short" {
		t.Error("clip changed a short text")
	}
}
