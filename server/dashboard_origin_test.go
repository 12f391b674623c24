package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestOtherOriginsGetNoCORS: the API answers no other origin's browser
// (no Access-Control-Allow-Origin, also to a preflight), and only the
// dashboard's pages carry its Content-Security-Policy.
func TestOtherOriginsGetNoCORS(t *testing.T) {
	ts := startServer(t, Config{})
	for _, c := range []struct{ method, path string }{
		{http.MethodOptions, "/graphql"},
		{http.MethodPost, "/graphql"},
		{http.MethodGet, "/api/sessions/1/events"},
		{http.MethodGet, "/"},
	} {
		req, _ := http.NewRequest(c.method, ts.url+c.path, strings.NewReader(`{"query":"{ me { role } }"}`))
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if v := resp.Header.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("%s %s: Access-Control-Allow-Origin %q", c.method, c.path, v)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if page := c.path == "/"; page != strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s %s: Content-Security-Policy %q", c.method, c.path, csp)
		}
	}
}
