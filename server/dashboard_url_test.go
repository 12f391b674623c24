package server

import (
	"context"
	"strings"
	"testing"
)

func TestBaseURL(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080",
		":9000":          "http://127.0.0.1:9000",
		"0.0.0.0:9000":   "http://127.0.0.1:9000",
		"[::]:9000":      "http://[::1]:9000",
		"[::1]:9000":     "http://[::1]:9000",
		"wetel.lan:80":   "http://wetel.lan:80",
	} {
		if got := baseURL(addr); got != want {
			t.Errorf("baseURL(%q) = %q, want %q", addr, got, want)
		}
	}
}

// TestFirstStartPrintsDashboard: the first start's output names the
// dashboard's address next to the key to sign in with.
func TestFirstStartPrintsDashboard(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s, err := New(context.Background(), Config{DataDir: t.TempDir(), Addr: "0.0.0.0:9000", Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if !strings.Contains(out.String(), "Dashboard http://127.0.0.1:9000/ (sign in with the key)") {
		t.Errorf("first-start output:\n%s", out.String())
	}
}
