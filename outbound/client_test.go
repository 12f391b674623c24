package outbound

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingServer is a test server on 127.0.0.1 that counts the requests it
// receives, so a test can prove that a refused call never arrived.
type countingServer struct {
	*httptest.Server
	hits atomic.Int64
}

// newCountingServer starts a server that counts requests and passes them to
// h, or answers "ok" when h is nil.
func newCountingServer(t *testing.T, h http.HandlerFunc) *countingServer {
	t.Helper()
	s := &countingServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if h == nil {
			fmt.Fprint(w, "ok")
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// port is the server's TCP port.
func (s *countingServer) port() int {
	return s.Listener.Addr().(*net.TCPAddr).Port
}

// get sends a GET through c.Do with a deadline, returning the body.
func get(t *testing.T, c *Client, rawURL string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		t.Fatalf("NewRequest(%q): %v", rawURL, err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading %s: %v", rawURL, err)
	}
	return string(body), nil
}

func TestDoAllowlistedLoopbackServer(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, nil)
	c := newTestClient(t, "127.0.0.1/32", newFakeResolver(nil))
	body, err := get(t, c, srv.URL+"/x")
	if err != nil || body != "ok" {
		t.Fatalf("GET %s with 127.0.0.1/32 allowed = %q, %v; want ok", srv.URL, body, err)
	}
	if n := srv.hits.Load(); n != 1 {
		t.Errorf("server got %d requests, want 1", n)
	}
}

func TestDoRefusesLoopbackServer(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, nil)
	c := newTestClient(t, "", newFakeResolver(nil))
	_, err := get(t, c, srv.URL+"/x")
	want := fmt.Sprintf("outbound: refused %s/x: 127.0.0.1 is a loopback address; add it to the allowlist "+
		"(--allow-host / WETEL_OUTBOUND_ALLOW) to call an internal service", srv.URL)
	assertRefused(t, "Do", err, want)
	if err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
	if n := srv.hits.Load(); n != 0 {
		t.Errorf("server got %d requests, want 0", n)
	}
}

// A public-looking name that resolves to loopback is refused when the call
// connects, and allowed when the name itself is on the allowlist.
func TestDoNameResolvingToLoopback(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, r.Host) })
	target := fmt.Sprintf("http://partner.test:%d/", srv.port())
	resolver := newFakeResolver(map[string][]string{"partner.test": {"127.0.0.1"}})

	refusing := newTestClient(t, "", resolver)
	_, err := get(t, refusing, target)
	assertRefused(t, "Do", err, "outbound: refused "+target+": partner.test resolves to 127.0.0.1, a loopback address")
	if n := srv.hits.Load(); n != 0 {
		t.Fatalf("server got %d requests from the refusing client, want 0", n)
	}

	allowing := newTestClient(t, "partner.test", resolver)
	body, err := get(t, allowing, target)
	if err != nil {
		t.Fatalf("GET %s with partner.test allowed: %v", target, err)
	}
	if want := fmt.Sprintf("partner.test:%d", srv.port()); body != want {
		t.Errorf("server saw Host %q, want %q", body, want)
	}
}

// Rule: DNS rebinding (a name that resolves public at first and private
// later) fails, because the address judged is the address connected to.
func TestDoDNSRebinding(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, nil)
	resolver := newFakeResolver(nil)
	resolver.answer("rebind.test", "93.184.215.14")
	resolver.answer("rebind.test", "127.0.0.1")
	c := newTestClient(t, "", resolver)
	target := fmt.Sprintf("http://rebind.test:%d/", srv.port())

	if err := c.Check(target); err != nil {
		t.Fatalf("Check while the name resolves public: %v", err)
	}
	_, err := get(t, c, target)
	assertRefused(t, "Do after rebinding", err, "rebind.test resolves to 127.0.0.1, a loopback address")
	if n := srv.hits.Load(); n != 0 {
		t.Errorf("server got %d requests after rebinding, want 0", n)
	}
	if n := resolver.count("rebind.test"); n != 2 {
		t.Errorf("rebind.test was looked up %d times, want 2 (Check, then the one dial)", n)
	}
}

// Each connection is judged on its own lookup: an allowed answer does not
// vouch for the next one.
func TestDoJudgesEachConnection(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, nil)
	resolver := newFakeResolver(nil)
	resolver.answer("flip.test", "127.0.0.1")
	resolver.answer("flip.test", "10.0.0.1")
	c := newTestClient(t, "127.0.0.1/32", resolver)
	target := fmt.Sprintf("http://flip.test:%d/", srv.port())

	if _, err := get(t, c, target); err != nil {
		t.Fatalf("first GET, flip.test -> 127.0.0.1 (allowed): %v", err)
	}
	c.CloseIdleConnections()
	_, err := get(t, c, target)
	assertRefused(t, "second GET", err, "flip.test resolves to 10.0.0.1, a private address")
	if n := srv.hits.Load(); n != 1 {
		t.Errorf("server got %d requests, want 1", n)
	}
}

// Rule: "Disable proxies": a proxy in the transport settings is dropped, so
// the call goes straight to the address the guard judged.
func TestDoIgnoresProxy(t *testing.T) {
	t.Parallel()
	proxy := newCountingServer(t, nil)
	srv := newCountingServer(t, nil)
	base := &http.Transport{Proxy: func(*http.Request) (*url.URL, error) { return url.Parse(proxy.URL) }}
	list, _ := ParseAllowlist("127.0.0.1")
	c, err := New(Config{Allow: list, Resolver: newFakeResolver(nil), Transport: base})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(c.CloseIdleConnections)
	if _, err := get(t, c, srv.URL); err != nil {
		t.Fatalf("GET %s: %v", srv.URL, err)
	}
	if p, s := proxy.hits.Load(), srv.hits.Load(); p != 0 || s != 1 {
		t.Errorf("proxy got %d requests and server %d, want 0 and 1", p, s)
	}
}

func TestControlApproved(t *testing.T) {
	t.Parallel()
	approved := func(a string) context.Context {
		return context.WithValue(context.Background(), approvedKey{}, netip.MustParseAddr(a))
	}
	tests := []struct {
		name    string
		ctx     context.Context
		address string
		ok      bool
	}{
		{"the approved address", approved("127.0.0.1"), "127.0.0.1:80", true},
		{"its IPv4-mapped form", approved("127.0.0.1"), "[::ffff:127.0.0.1]:80", true},
		{"with a zone", approved("fe80::1%eth0"), "[fe80::1%eth0]:80", true},
		{"another address", approved("127.0.0.1"), "127.0.0.2:80", false},
		{"nothing approved", context.Background(), "93.184.215.14:443", false},
		{"not an address", approved("127.0.0.1"), "localhost:80", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := controlApproved(tt.ctx, "tcp4", tt.address, nil)
			if tt.ok && err != nil {
				t.Fatalf("controlApproved(%s) = %v, want nil", tt.address, err)
			}
			if !tt.ok {
				assertRefused(t, "controlApproved", err, "not to an address the guard approved")
			}
		})
	}
}

func TestNewRejectsNegativeDialTimeout(t *testing.T) {
	t.Parallel()
	if _, err := New(Config{DialTimeout: -time.Second}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("New with a negative dial timeout = %v, want an error saying it is negative", err)
	}
}

// RoundTrip closes the body of a request it refuses, as http.RoundTripper
// requires, so a refused POST leaks nothing.
func TestRefusedRequestBodyIsClosed(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, "", newFakeResolver(nil))
	body := &closeRecorder{Reader: strings.NewReader(`{"a":1}`)}
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1:9/", body)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Do(req)
	assertRefused(t, "Do", err, "loopback")
	if !body.closed.Load() {
		t.Error("the refused request's body was not closed")
	}
}

type closeRecorder struct {
	io.Reader
	closed atomic.Bool
}

func (r *closeRecorder) Close() error {
	r.closed.Store(true)
	return nil
}

// The Client's dialer refuses, by itself, any connection the guard did not
// approve, so that a future dial path that skips dialContext still fails.
func TestDialerRefusesUnapprovedConnection(t *testing.T) {
	t.Parallel()
	srv := newCountingServer(t, nil)
	c := newTestClient(t, "127.0.0.1/32", newFakeResolver(nil))
	conn, err := c.guard.dialer.DialContext(context.Background(), "tcp", srv.Listener.Addr().String())
	if conn != nil {
		conn.Close()
	}
	// The *net.OpError around the refusal is what Do's explain lifts.
	assertRefused(t, "dialer", explain(err), "not to an address the guard approved")
}
