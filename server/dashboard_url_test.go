package server

import "testing"

func TestDashboardURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080": "http://127.0.0.1:8080/",
		":9000":          "http://localhost:9000/",
		"0.0.0.0:9000":   "http://localhost:9000/",
		"[::]:9000":      "http://localhost:9000/",
		"[::1]:9000":     "http://[::1]:9000/",
		"wetel.lan:80":   "http://wetel.lan:80/",
	} {
		if got := dashboardURL(addr); got != want {
			t.Errorf("dashboardURL(%q) = %q, want %q", addr, got, want)
		}
	}
}
