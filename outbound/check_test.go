package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
)

// ssrfVectors are URLs the guard must refuse, each with a piece of the
// reason it must give. allow is the allowlist in force, mostly none.
var ssrfVectors = []struct {
	url, allow, want string
}{
	// Literal addresses in every blocked range.
	{url: "http://127.0.0.1/", want: "127.0.0.1 is a loopback address"},
	{url: "http://127.0.0.1:8080/x", want: "127.0.0.1 is a loopback address; add it to the allowlist"},
	{url: "http://127.255.255.254/", want: "loopback"},
	{url: "http://[::1]/", want: "::1 is a loopback address"},
	{url: "http://0.0.0.0/", want: "the unspecified address"},
	{url: "http://0.0.0.0:8080/", want: "the unspecified address"},
	{url: "http://[::]/", want: ":: is the unspecified address"},
	{url: "http://0.1.2.3/", want: `"this network"`},
	{url: "http://10.0.0.1/", want: "private"},
	{url: "http://172.16.0.1/", want: "private"},
	{url: "http://172.31.255.255/", want: "private"},
	{url: "http://192.168.1.1/", want: "private"},
	{url: "http://100.64.0.1/", want: "carrier-grade NAT"},
	{url: "http://169.254.1.1/", want: "link-local"},
	{url: "http://[fe80::1]/", want: "link-local"},
	{url: "http://[fe80::1%25eth0]/", want: "link-local"},
	{url: "http://[fc00::1]/", want: "unique-local"},
	{url: "http://[fd12:3456::1]:8443/", want: "unique-local"},
	{url: "http://224.0.0.1/", want: "multicast"},
	{url: "http://[ff02::1]/", want: "multicast"},
	{url: "http://255.255.255.255/", want: "the broadcast address"},
	{url: "http://240.0.0.1/", want: "reserved"},
	{url: "http://198.18.0.1/", want: "benchmarking"},
	{url: "http://192.0.2.10/", want: "documentation"},
	{url: "http://[2001:db8::1]/", want: "documentation"},
	{url: "http://[fec0::1]/", want: "site-local"},
	// Cloud metadata, by address and by name.
	{url: "http://169.254.169.254/latest/meta-data/", want: "169.254.169.254 is a cloud metadata address"},
	{url: "http://169.254.170.2/v2/credentials", want: "cloud metadata"},
	{url: "http://100.100.100.200/latest/meta-data/", want: "cloud metadata"},
	{url: "http://[fd00:ec2::254]/latest/meta-data/", want: "cloud metadata"},
	{url: "http://metadata.google.internal/computeMetadata/v1/", want: "metadata.google.internal is a cloud metadata host name"},
	{url: "http://METADATA.google.internal./", want: "cloud metadata host name"},
	{url: "http://metadata/computeMetadata/v1/", want: "cloud metadata host name"},
	{url: "http://169.254.169.254/", allow: "169.254.0.0/16", want: "cloud metadata"},
	// Other spellings of an IPv4 address.
	{url: "http://2130706433/", want: "2130706433 means 127.0.0.1, a loopback address"},
	{url: "http://0177.0.0.1/", want: "0177.0.0.1 means 127.0.0.1"},
	{url: "http://0x7f.0.0.1/", want: "0x7f.0.0.1 means 127.0.0.1"},
	{url: "http://0x7f000001/", want: "means 127.0.0.1"},
	{url: "http://017700000001/", want: "means 127.0.0.1"},
	{url: "http://127.1/", want: "127.1 means 127.0.0.1"},
	{url: "http://127.0.1/", want: "means 127.0.0.1"},
	{url: "http://0177.1/", want: "means 127.0.0.1"},
	{url: "http://0x7F.0X0.0.01/", want: "means 127.0.0.1"},
	{url: "http://0/", want: "0 means 0.0.0.0, the unspecified address"},
	{url: "http://0xa9fea9fe/", want: "means 169.254.169.254, a cloud metadata address"},
	{url: "http://127.0.0.1./", want: "127.0.0.1. means 127.0.0.1"},
	{url: "http://2130706433.:80/", want: "means 127.0.0.1"},
	{url: "HTTP://127.0.0.1/", want: "loopback"},
	// IPv6 forms that reach an IPv4 address.
	{url: "http://[::ffff:127.0.0.1]/", want: "IPv4-mapped address of 127.0.0.1, a loopback address"},
	{url: "http://[::ffff:7f00:1]/", want: "IPv4-mapped address of 127.0.0.1"},
	{url: "http://[0:0:0:0:0:ffff:127.0.0.1]/", want: "IPv4-mapped"},
	{url: "http://[::ffff:a9fe:a9fe]/", want: "169.254.169.254, a cloud metadata address"},
	{url: "http://[::ffff:10.0.0.1]/", want: "private"},
	{url: "http://[::7f00:1]/", want: "IPv4-compatible"},
	{url: "http://[::127.0.0.1]/", want: "IPv4-compatible"},
	{url: "http://[::ffff:0:7f00:1]/", want: "IPv4-translated address of 127.0.0.1"},
	{url: "http://[64:ff9b::a00:1]/", want: "NAT64 address of 10.0.0.1, a private address"},
	{url: "http://[2002:7f00:1::]/", want: "6to4 address of 127.0.0.1"},
	{url: "http://[2002:c0a8:101::1]/", want: "6to4 address of 192.168.1.1"},
	{url: "http://[100::1]/", want: "discard-only"},
	{url: "http://[::2]/", want: "IPv4-compatible"},
	// Userinfo, fragment and case tricks: the host is what net/url parses.
	{url: "http://example.com@127.0.0.1/", want: "127.0.0.1 is a loopback address"},
	{url: "http://user:pass@127.0.0.1/", want: "loopback"},
	{url: "http://127.0.0.1#@example.com", want: "loopback"},
	{url: "http://127.0.0.1:80#@public.test/", want: "loopback"},
	{url: "http://localhost/", want: "localhost is a loopback host name"},
	{url: "http://localhost:8080/admin", want: "loopback host name"},
	{url: "http://LOCALHOST/", want: "localhost is a loopback host name"},
	{url: "http://localhost./", want: "loopback host name"},
	{url: "http://api.localhost/", want: "loopback host name"},
	{url: "http://public.test@localhost/", want: "loopback host name"},
	// Names that resolve to refused addresses.
	{url: "http://private.test/", want: "private.test resolves to 10.1.2.3, a private address"},
	{url: "http://PRIVATE.TEST./", want: "resolves to 10.1.2.3"},
	{url: "http://mixed.test/", want: "mixed.test resolves to 192.168.0.5"},
	{url: "http://v6private.test/", want: "unique-local"},
	{url: "http://loop.test:8080/", want: "loop.test resolves to 127.0.0.1, a loopback address"},
	{url: "http://mapped.test/", want: "resolves to 169.254.169.254, a cloud metadata address"},
	{url: "http://linklocal.test/", want: "link-local"},
	{url: "http://cgnat.test/", want: "carrier-grade NAT"},
	{url: "http://nat64.test/", want: "NAT64 address of 192.168.0.1"},
	{url: "http://meta.test/", allow: "169.254.0.0/16", want: "cloud metadata"},
	// Allowlist entries open no more than they say.
	{url: "http://example.internal/", allow: "*.example.internal", want: "private"},
	{url: "http://127.0.0.2/", allow: "127.0.0.1/32", want: "loopback"},
	{url: "http://private.test/", allow: "public.test,192.168.0.0/16", want: "private"},
	{url: "http://evil.partner.test/", allow: "partner.test", want: "evil.partner.test resolves to 10.9.9.9"},
	{url: "http://meta.test/", allow: "meta.test", want: "meta.test resolves to 169.254.169.254, a cloud metadata address"},
	{url: "http://metadata.google.internal/", allow: "*.google.internal", want: "cloud metadata host name"},
	{url: "http://loop.test:8080/", allow: "loop.test:9090", want: "loopback"},
	{url: "http://127.0.0.1:22/", allow: "127.0.0.1:8080", want: "loopback"},
	{url: "https://10.1.2.3/", allow: "10.0.0.0/8:80", want: "private"},
	// Schemes and malformed URLs.
	{url: "ftp://public.test/", want: `scheme "ftp" is not allowed`},
	{url: "file:///etc/passwd", want: `scheme "file" is not allowed`},
	{url: "gopher://127.0.0.1:6379/_INFO", want: "not allowed"},
	{url: "javascript:alert(1)", want: "not allowed"},
	{url: "//127.0.0.1/", want: "no scheme"},
	{url: "http:/127.0.0.1", want: "no host"},
	{url: "http:127.0.0.1", want: "no host"},
	{url: "http://%31%32%37.0.0.1/", want: "not a valid URL"},
	{url: "http://１２７.０.０.１/", want: "not ASCII"},
	{url: "http://127.0.0.1;x/", want: "not a valid host name"},
	{url: "http://[fe80::1%25eth0%25x]/", want: "link-local"},
	{url: "http://[fe80::1::2]/", want: "not a valid URL"},
	{url: "http://[::1/", want: "not a valid URL"},
}

// TestCheckRefusesSSRFVectors runs every vector through the three places
// that judge a URL: Check at save time, the dial-time approval, and a full
// Do. Do runs only once the dial path has refused, so a bug in the guard
// fails the test without ever opening a connection.
func TestCheckRefusesSSRFVectors(t *testing.T) {
	t.Parallel()
	for _, v := range ssrfVectors {
		t.Run(v.url, func(t *testing.T) {
			t.Parallel()
			c := newTestClient(t, v.allow, newFakeResolver(testNames))
			assertRefused(t, "Check", c.Check(v.url), v.want)

			u, err := url.Parse(v.url)
			if err != nil || u.Host == "" || !strings.HasPrefix(u.Scheme, "http") {
				return
			}
			if err := dialApproval(c, u); err == nil {
				t.Fatalf("dial-time approval of %s allowed it", v.url)
			} else {
				assertRefused(t, "dial approval", reject(err), v.want)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.url, nil)
			if err != nil {
				t.Fatalf("NewRequest(%q): %v", v.url, err)
			}
			resp, err := c.Do(req)
			if resp != nil {
				resp.Body.Close()
			}
			assertRefused(t, "Do", err, v.want)
		})
	}
	if n := len(ssrfVectors); n < 40 {
		t.Errorf("want at least 40 SSRF vectors, have %d", n)
	}
}

// dialApproval runs the dial-time half of the guard on u's host, as the
// HTTP transport hands it over, without connecting.
func dialApproval(c *Client, u *url.URL) *RefusedError {
	h, err := parseHost(u.Hostname())
	if err != nil {
		return &RefusedError{Host: u.Hostname(), Reason: err.Error()}
	}
	h.port, _ = urlPort(u)
	_, err = c.guard.approve(context.Background(), "tcp", h)
	if re, ok := errors.AsType[*RefusedError](err); ok {
		return re
	}
	return nil
}

// assertRefused checks that err is a refusal classified UNREACHABLE (no
// service answered, so not REJECTED), not sent and marked refused, whose
// message contains want.
func assertRefused(t *testing.T, where string, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: allowed, want refused with %q", where, want)
	}
	if code := failure.Classify(err); code != failure.Unreachable {
		t.Errorf("%s: Classify = %s, want UNREACHABLE (error %q)", where, code, err)
	}
	fe, ok := errors.AsType[*failure.Error](err)
	if !ok || fe.Sent || !failure.IsRefused(err) {
		t.Errorf("%s: want a *failure.Error with Sent false and Refused true, got %#v", where, err)
	}
	if _, ok := errors.AsType[*RefusedError](err); !ok {
		t.Errorf("%s: no *RefusedError in %q", where, err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s: error %q does not contain %q", where, err, want)
	}
	if !strings.HasPrefix(err.Error(), "outbound: refused ") {
		t.Errorf("%s: error %q does not start with %q", where, err, "outbound: refused ")
	}
}

// TestCheckAllows covers what the guard lets through: public addresses
// and names, and internal ones the allowlist opens.
func TestCheckAllows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url, allow, dials string
	}{
		{url: "http://93.184.215.14/", dials: "93.184.215.14"},
		{url: "https://public.test/hook", dials: "93.184.215.14"},
		{url: "https://public6.test/", dials: "2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
		{url: "http://[2606:4700:4700::1111]/", dials: "2606:4700:4700::1111"},
		{url: "http://[::ffff:8.8.8.8]/", dials: "::ffff:8.8.8.8"},
		{url: "http://134744072/", dials: "8.8.8.8"},
		{url: "http://[64:ff9b::808:808]/", dials: "64:ff9b::808:808"},
		{url: "http://[2002:808:808::1]/", dials: "2002:808:808::1"},
		{url: "http://user:pw@public.test:8443/x?y=1#z", dials: "93.184.215.14"},
		{url: "http://127.0.0.1:8080/", allow: "127.0.0.1/32", dials: "127.0.0.1"},
		{url: "http://2130706433/", allow: "127.0.0.0/8", dials: "127.0.0.1"},
		{url: "http://[::ffff:127.0.0.1]/", allow: "127.0.0.1", dials: "::ffff:127.0.0.1"},
		{url: "http://10.1.2.3/", allow: "10.0.0.0/8", dials: "10.1.2.3"},
		{url: "http://private.test/", allow: "10.0.0.0/8", dials: "10.1.2.3"},
		{url: "http://[::1]/", allow: "::1", dials: "::1"},
		{url: "http://[fd12:3456::1]/", allow: "fd00::/8", dials: "fd12:3456::1"},
		{url: "http://partner.test/", allow: "partner.test", dials: "127.0.0.1"},
		{url: "http://PARTNER.test./", allow: "Partner.Test", dials: "127.0.0.1"},
		{url: "http://intranet.example.internal/", allow: "*.example.internal", dials: "10.0.0.5"},
		{url: "http://a.b.example.internal/", allow: "*.example.internal", dials: "10.0.0.7"},
		{url: "http://localhost/", allow: "localhost", dials: ""},
		{url: "http://169.254.169.254/", allow: "169.254.169.254!", dials: "169.254.169.254"},
		{url: "http://meta.test/", allow: "meta.test,169.254.169.254!", dials: "169.254.169.254"},
		{url: "http://127.0.0.1:8080/", allow: "127.0.0.1:8080", dials: "127.0.0.1"},
		{url: "https://partner.test/", allow: "partner.test:443", dials: "127.0.0.1"},
		{url: "http://10.1.2.3:8443/", allow: "10.0.0.0/8:8443", dials: "10.1.2.3"},
		{url: "http://unknown.test/", dials: ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			c := newTestClient(t, tt.allow, newFakeResolver(testNames))
			if err := c.Check(tt.url); err != nil {
				t.Fatalf("Check(%q) with allowlist %q: %v", tt.url, tt.allow, err)
			}
			if tt.dials == "" {
				return // the fake resolver does not know the name
			}
			u, _ := url.Parse(tt.url)
			h, err := parseHost(u.Hostname())
			if err != nil {
				t.Fatalf("parseHost(%q): %v", u.Hostname(), err)
			}
			h.port, _ = urlPort(u)
			addrs, err := c.guard.approve(context.Background(), "tcp", h)
			if err != nil || len(addrs) != 1 || addrs[0].String() != tt.dials {
				t.Fatalf("dial approval of %q = %v, %v; want [%s]", tt.url, addrs, err, tt.dials)
			}
		})
	}
}

// TestCheckLookupFailurePasses pins the rule that Check leaves a name that
// does not resolve to connect time, reporting no error.
func TestCheckLookupFailurePasses(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, "", newFakeResolver(nil))
	if err := c.Check("https://nowhere.test/"); err != nil {
		t.Fatalf("Check of an unresolvable name = %v, want nil", err)
	}
	_, err := c.guard.approve(context.Background(), "tcp", host{written: "nowhere.test", name: "nowhere.test"})
	if _, ok := errors.AsType[*net.DNSError](err); !ok {
		t.Fatalf("dial approval of an unresolvable name = %v, want a *net.DNSError", err)
	}
}
