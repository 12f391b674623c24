package outbound

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/wetel/wetel/failure"
)

// redirecting answers every request with a redirect to target.
func redirecting(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	}
}

// A redirect from an allowed server to an address that is not allowed is
// refused, and the target never hears of it. partner.test reaches the first
// server because the name is allowlisted; the targets all lead to the
// second server's loopback address, which is not.
func TestDoRefusesRedirectToInternal(t *testing.T) {
	t.Parallel()
	inner := newCountingServer(t, nil)
	targets := []struct {
		target, want string
	}{
		{fmt.Sprintf("http://internal.test:%d/secret", inner.port()), "internal.test resolves to 127.0.0.1, a loopback address"},
		{fmt.Sprintf("http://127.0.0.1:%d/secret", inner.port()), "127.0.0.1 is a loopback address"},
		{fmt.Sprintf("http://127.0.0.2:%d/secret", inner.port()), "127.0.0.2 is a loopback address"},
		{fmt.Sprintf("http://2130706433:%d/secret", inner.port()), "2130706433 means 127.0.0.1"},
		{fmt.Sprintf("http://localhost:%d/secret", inner.port()), "localhost is a loopback host name"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"},
		{"ftp://partner.test/", `scheme "ftp" is not allowed`},
	}
	for _, tt := range targets {
		t.Run(tt.target, func(t *testing.T) {
			t.Parallel()
			outer := newCountingServer(t, redirecting(tt.target))
			resolver := newFakeResolver(map[string][]string{"partner.test": {"127.0.0.1"}, "internal.test": {"127.0.0.1"}})
			c := newTestClient(t, "partner.test", resolver)
			_, err := get(t, c, fmt.Sprintf("http://partner.test:%d/start", outer.port()))
			assertRefused(t, "Do", err, "outbound: refused "+tt.target+": "+tt.want)
			if n := outer.hits.Load(); n != 1 {
				t.Errorf("allowed server got %d requests, want 1", n)
			}
			if n := inner.hits.Load(); n != 0 {
				t.Errorf("redirect target got %d requests, want 0", n)
			}
		})
	}
}

// The *http.Client from HTTP refuses the same redirect, even when its
// caller replaced CheckRedirect, and the refusal still classifies as
// UNREACHABLE, refused, through the *url.Error around it.
func TestHTTPClientRefusesRedirectWithoutCheckRedirect(t *testing.T) {
	t.Parallel()
	inner := newCountingServer(t, nil)
	outer := newCountingServer(t, redirecting(fmt.Sprintf("http://127.0.0.1:%d/", inner.port())))
	resolver := newFakeResolver(map[string][]string{"partner.test": {"127.0.0.1"}})
	c := newTestClient(t, "partner.test", resolver)
	hc := c.HTTP()
	hc.CheckRedirect = nil
	resp, err := hc.Get(fmt.Sprintf("http://partner.test:%d/", outer.port()))
	if resp != nil {
		resp.Body.Close()
	}
	if err == nil {
		t.Fatal("redirect to 127.0.0.1 through HTTP() was allowed")
	}
	if code := failure.Classify(err); code != failure.Unreachable || !failure.IsRefused(err) {
		t.Errorf("Classify = %s, want UNREACHABLE, refused (error %q)", code, err)
	}
	if n := inner.hits.Load(); n != 0 {
		t.Errorf("redirect target got %d requests, want 0", n)
	}
	if c.http.CheckRedirect == nil {
		t.Error("changing the copy from HTTP() changed the Client's own CheckRedirect")
	}
}

// Rule: "Limit redirects to 5." /hop/N redirects to /hop/N-1 and /hop/0
// answers, so /hop/5 takes five redirects and /hop/6 one too many.
func TestDoFollowsAtMostFiveRedirects(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		if n == 0 {
			fmt.Fprint(w, "arrived")
			return
		}
		http.Redirect(w, r, "/hop/"+strconv.Itoa(n-1), http.StatusFound)
	})
	c := newTestClient(t, "127.0.0.1/32", newFakeResolver(nil))
	if body, err := get(t, c, srv.URL+"/hop/5"); err != nil || body != "arrived" {
		t.Fatalf("five redirects: got %q, %v; want arrived", body, err)
	}
	_, err := get(t, c, srv.URL+"/hop/6")
	if err == nil || !strings.Contains(err.Error(), "stopped after 5 redirects") {
		t.Fatalf("six redirects: error %v, want one saying it stopped after 5 redirects", err)
	}
	if code := failure.Classify(err); code != failure.Rejected {
		t.Errorf("six redirects: Classify = %s, want REJECTED", code)
	}
	if n := srv.hits.Load(); n != 6+6 {
		t.Errorf("server got %d requests, want 12 (6 for each call)", n)
	}
}

// A redirect from https to http is refused: it would send the request in
// clear text. The https call itself works through the guarded dialer.
func TestDoRefusesHTTPSDowngrade(t *testing.T) {
	t.Parallel()
	plain := newCountingServer(t, nil)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down" {
			http.Redirect(w, r, plain.URL+"/", http.StatusFound)
			return
		}
		fmt.Fprint(w, "secure")
	}))
	t.Cleanup(secure.Close)
	base := &http.Transport{TLSClientConfig: secure.Client().Transport.(*http.Transport).TLSClientConfig.Clone()}
	base.TLSClientConfig.MinVersion = tls.VersionTLS12
	list, _ := ParseAllowlist("127.0.0.1")
	c, err := New(Config{Allow: list, Resolver: newFakeResolver(nil), Transport: base})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(c.CloseIdleConnections)

	if body, err := get(t, c, secure.URL+"/"); err != nil || body != "secure" {
		t.Fatalf("GET %s/ = %q, %v; want secure", secure.URL, body, err)
	}
	_, err = get(t, c, secure.URL+"/down")
	assertRefused(t, "downgrade", err, "a redirect from https to http would send the request unencrypted")
	if n := plain.hits.Load(); n != 0 {
		t.Errorf("http server got %d requests, want 0", n)
	}
}

// checkRedirect judges the redirect's URL by itself; the transport judges
// it again, but a refusal here names the redirect before anything is sent.
func TestCheckRedirect(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, "partner.test", newFakeResolver(nil))
	from := httptest.NewRequest(http.MethodGet, "http://partner.test/", nil)
	tests := []struct {
		to, want string
	}{
		{"http://partner.test/next", ""},
		{"https://partner.test/next", ""},
		{"http://127.0.0.1/", "127.0.0.1 is a loopback address"},
		{"http://[::ffff:a9fe:a9fe]/", "cloud metadata"},
		{"ftp://partner.test/", "not allowed"},
	}
	for _, tt := range tests {
		to := httptest.NewRequest(http.MethodGet, tt.to, nil)
		err := c.guard.checkRedirect(to, []*http.Request{from})
		if tt.want == "" {
			if err != nil {
				t.Errorf("redirect to %s: %v, want allowed", tt.to, err)
			}
			continue
		}
		assertRefused(t, "redirect to "+tt.to, err, tt.want)
	}
}
