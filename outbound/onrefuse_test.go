package outbound

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// OnRefuse hears of each refused call exactly once, wherever the guard
// refused it (the URL, a name resolving inward when connecting, a redirect,
// CheckContext), with the URL named; an allowed call is not reported.
func TestOnRefuseReportsEachRefusalOnce(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, nil)
	redirector := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	resolver := newFakeResolver(map[string][]string{"partner.test": {"127.0.0.1"}, "redirector.test": {"127.0.0.1"}})
	list, err := ParseAllowlist("redirector.test")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	c, err := New(Config{Allow: list, Resolver: resolver, OnRefuse: func(_ context.Context, e *RefusedError) {
		mu.Lock()
		got = append(got, e.URL)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	inward := fmt.Sprintf("http://partner.test:%d/x", srv.port())
	redirect := fmt.Sprintf("http://redirector.test:%d/go", redirector.port())
	cases := []struct {
		name, url, reported string
		check               bool
	}{
		{"a loopback URL", srv.URL + "/x", srv.URL + "/x", false},
		{"a name resolving to loopback", inward, inward, false},
		{"a redirect to cloud metadata", redirect, "http://169.254.169.254/latest/meta-data/", false},
		{"CheckContext", "http://10.1.2.3/hooks", "http://10.1.2.3/hooks", true},
	}
	for _, tc := range cases {
		mu.Lock()
		got = nil
		mu.Unlock()
		if tc.check {
			err = c.CheckContext(context.Background(), tc.url)
		} else {
			_, err = get(t, c, tc.url)
		}
		if err == nil {
			t.Fatalf("%s: allowed", tc.name)
		}
		mu.Lock()
		if len(got) != 1 || got[0] != tc.reported {
			t.Errorf("%s: reported %q, want once %q", tc.name, got, tc.reported)
		}
		mu.Unlock()
	}
	mu.Lock()
	got = nil
	mu.Unlock()
	allowed, err := New(Config{Allow: mustAllow(t, "127.0.0.1/32"), Resolver: resolver, OnRefuse: func(context.Context, *RefusedError) {
		t.Error("an allowed call was reported refused")
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(allowed.CloseIdleConnections)
	if _, err := get(t, allowed, srv.URL+"/x"); err != nil {
		t.Fatal(err)
	}
}

func mustAllow(t *testing.T, s string) Allowlist {
	t.Helper()
	l, err := ParseAllowlist(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
