package outbound

import (
	"context"
	"net/netip"
	"net/url"
	"testing"

	"github.com/wetel/wetel/failure"
)

// fuzzResolver answers every name with the addresses encoded in answer:
// when its first byte is even, 4-byte IPv4 addresses follow, otherwise
// 16-byte IPv6 ones. The fuzzer thus controls what names resolve to.
type fuzzResolver struct{ answer []byte }

// LookupNetIP decodes at most four addresses from r.answer.
func (r fuzzResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	if len(r.answer) == 0 {
		return nil, nil
	}
	size, rest := 4, r.answer[1:]
	if r.answer[0]%2 == 1 {
		size = 16
	}
	var out []netip.Addr
	for len(rest) >= size && len(out) < 4 {
		a, _ := netip.AddrFromSlice(rest[:size])
		out = append(out, a)
		rest = rest[size:]
	}
	return out, nil
}

// FuzzCheckURL checks that, with no allowlist, neither Check nor the
// dial-time approval ever lets through an address Blocked reports, that
// every refusal is UNREACHABLE and marked refused, and that nothing panics.
func FuzzCheckURL(f *testing.F) {
	for _, v := range ssrfVectors {
		f.Add(v.url, []byte{0, 127, 0, 0, 1})
	}
	for _, s := range []string{"http://public.test/", "https://93.184.215.14/", "http://[2606:4700::1]/", "http://a.b/"} {
		f.Add(s, []byte{0, 93, 184, 215, 14, 10, 0, 0, 1})
		f.Add(s, append([]byte{1}, netip.MustParseAddr("::ffff:127.0.0.1").AsSlice()...))
	}
	f.Fuzz(func(t *testing.T, rawURL string, answer []byte) {
		c, err := New(Config{Resolver: fuzzResolver{answer}})
		if err != nil {
			t.Fatal(err)
		}
		checkErr := c.Check(rawURL)
		if checkErr != nil && (failure.Classify(checkErr) != failure.Unreachable || !failure.IsRefused(checkErr)) {
			t.Fatalf("Check(%q) = %v, classified %s, want UNREACHABLE, refused", rawURL, checkErr, failure.Classify(checkErr))
		}
		u, err := url.Parse(rawURL)
		if err != nil {
			if checkErr == nil {
				t.Fatalf("Check(%q) allowed a URL net/url cannot parse", rawURL)
			}
			return
		}
		if checkErr == nil && u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("Check(%q) allowed scheme %q", rawURL, u.Scheme)
		}
		h, err := parseHost(u.Hostname())
		if err != nil {
			if checkErr == nil {
				t.Fatalf("Check(%q) allowed host %q that parseHost refuses: %v", rawURL, u.Hostname(), err)
			}
			return
		}
		if checkErr == nil && h.addr.IsValid() && Blocked(h.addr) {
			t.Fatalf("Check(%q) allowed %s, which Blocked reports", rawURL, h.addr)
		}
		addrs, err := c.guard.approve(context.Background(), "tcp", h)
		for _, a := range addrs {
			if Blocked(a) {
				t.Fatalf("dial approval of %q (answers %v) allowed %s, which Blocked reports", rawURL, answer, a)
			}
		}
		if checkErr == nil && err != nil && failure.IsRefused(err) {
			t.Fatalf("Check(%q) allowed what the dial refuses: %v", rawURL, err)
		}
	})
}
