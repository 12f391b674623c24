package outbound

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"testing"
)

// fakeResolver answers from a table, so that no test touches real DNS. A
// name's n-th lookup gets its n-th answer, the last answer repeating, which
// is how the rebinding tests change an answer between lookups.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	lookups map[string]int
}

// newFakeResolver maps each name to one fixed answer.
func newFakeResolver(hosts map[string][]string) *fakeResolver {
	r := &fakeResolver{answers: map[string][][]netip.Addr{}, lookups: map[string]int{}}
	for name, addrs := range hosts {
		r.answer(name, addrs...)
	}
	return r
}

// answer appends one answer to name's sequence.
func (r *fakeResolver) answer(name string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var answer []netip.Addr
	for _, a := range addrs {
		answer = append(answer, netip.MustParseAddr(a))
	}
	r.answers[name] = append(r.answers[name], answer)
}

// LookupNetIP answers name's next answer, or "no such host".
func (r *fakeResolver) LookupNetIP(_ context.Context, _, name string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	seq, ok := r.answers[name]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
	}
	n := r.lookups[name]
	r.lookups[name]++
	return seq[min(n, len(seq)-1)], nil
}

// count returns how many times name was looked up.
func (r *fakeResolver) count(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lookups[name]
}

// testNames are the names the table tests resolve.
var testNames = map[string][]string{
	"private.test":              {"10.1.2.3"},
	"mixed.test":                {"93.184.215.14", "192.168.0.5"},
	"v6private.test":            {"fd12:3456::1"},
	"loop.test":                 {"127.0.0.1"},
	"mapped.test":               {"::ffff:169.254.169.254"},
	"linklocal.test":            {"fe80::1"},
	"cgnat.test":                {"100.64.0.9"},
	"nat64.test":                {"64:ff9b::c0a8:1"},
	"meta.test":                 {"169.254.169.254"},
	"public.test":               {"93.184.215.14"},
	"public6.test":              {"2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
	"partner.test":              {"127.0.0.1"},
	"evil.partner.test":         {"10.9.9.9"},
	"intranet.example.internal": {"10.0.0.5"},
	"a.b.example.internal":      {"10.0.0.7"},
	"example.internal":          {"10.0.0.6"},
}

// newTestClient builds a Client with the allowlist allow and resolver r.
func newTestClient(t *testing.T, allow string, r Resolver) *Client {
	t.Helper()
	list, err := ParseAllowlist(allow)
	if err != nil {
		t.Fatalf("ParseAllowlist(%q): %v", allow, err)
	}
	c, err := New(Config{Allow: list, Resolver: r})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}
