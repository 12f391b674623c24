package outbound

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// guard holds the rules every outbound call passes: the allowlist, the
// built-in refusals, and the resolver names are looked up with.
type guard struct {
	allow    Allowlist
	resolver Resolver
	dialer   *net.Dialer
	onRefuse func(context.Context, *RefusedError)
}

// report tells Config.OnRefuse about a refusal, naming u when the refusal
// does not.
func (g *guard) report(ctx context.Context, re *RefusedError, u *url.URL) {
	if g.onRefuse == nil {
		return
	}
	cp := *re
	if cp.URL == "" && u != nil {
		cp.URL = u.Redacted()
	}
	g.onRefuse(ctx, &cp)
}

// checkURL judges what can be judged of u without a lookup: its scheme and
// its host, spelled however. Names are looked up, and their addresses
// judged, when the call connects (see dialContext).
func (g *guard) checkURL(u *url.URL) (host, *RefusedError) {
	// The allowlist cannot open these refusals, so they carry no hint.
	refused := func(reason string) (host, *RefusedError) {
		return host{}, &RefusedError{URL: u.Redacted(), Host: u.Hostname(), Reason: reason}
	}
	// Rule: "Only http and https schemes."
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return refused("the URL has no scheme: only http and https are allowed")
	default:
		return refused(fmt.Sprintf("scheme %q is not allowed: only http and https are", u.Scheme))
	}
	h, err := parseHost(u.Hostname())
	if err != nil {
		return refused(err.Error())
	}
	port, err := urlPort(u)
	if err != nil {
		return refused(err.Error())
	}
	h.port = port
	if re := g.judgeHost(h); re != nil {
		re.URL = u.Redacted()
		return h, re
	}
	return h, nil
}

// judgeHost judges a host as written: an address by what it is, a name by
// the names refused outright. Rule: "allowlist first".
func (g *guard) judgeHost(h host) *RefusedError {
	if h.addr.IsValid() {
		how := ""
		if h.respelled {
			how = "means"
		}
		return g.judgeAddr(h.written, how, h.addr, h.port)
	}
	if ok, _ := g.allow.allowsName(h.name, h.port); ok {
		return nil
	}
	if kind, blocked := blockedNameKind(h.name); blocked {
		return &RefusedError{Host: h.written, Reason: h.name + " is " + kind, allowable: true}
	}
	return nil
}

// judgeAddr refuses addr unless the allowlist opens it or it is not
// blocked.
func (g *guard) judgeAddr(written, how string, addr netip.Addr, port uint16) *RefusedError {
	if g.allow.allowsAddr(addr, port) {
		return nil
	}
	if kind, blocked := blockedKind(addr); blocked {
		return refuseAddr(written, how, addr, kind)
	}
	return nil
}

// approve returns the addresses a connection to h may use, looking a name
// up once. Rule: the check happens "on the resolved address", so the
// addresses returned are the ones dialled, literally, and a later lookup
// cannot swap them. A name that resolves to any refused address is refused
// as a whole, rather than filtered: an attacker who can add one private
// answer can usually arrange for the public ones to fail. A name on the
// allowlist is allowed whatever it resolves to.
func (g *guard) approve(ctx context.Context, network string, h host) ([]netip.Addr, error) {
	if re := g.judgeHost(h); re != nil {
		return nil, re
	}
	if h.addr.IsValid() {
		return []netip.Addr{h.addr}, nil
	}
	addrs, err := g.resolver.LookupNetIP(ctx, lookupNetwork(network), h.name)
	if err != nil {
		return nil, err
	}
	byName, metadataOK := g.allow.allowsName(h.name, h.port)
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		// Resolvers may answer IPv4 in its IPv4-mapped form; dial it as IPv4.
		a = a.Unmap()
		// An allowlisted name opens what it resolves to, but a metadata
		// address only when its entry says so with "!" (or the address's
		// own entry does).
		if !byName || (!metadataOK && isMetadata(a)) {
			if re := g.judgeAddr(h.written, "resolves to", a, h.port); re != nil {
				return nil, re
			}
		}
		if familyMatches(network, a) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no suitable address", Name: h.name, IsNotFound: true}
	}
	return out, nil
}

// lookupNetwork is the resolver network for a dial network.
func lookupNetwork(network string) string {
	switch network {
	case "tcp4":
		return "ip4"
	case "tcp6":
		return "ip6"
	}
	return "ip"
}

// familyMatches reports whether a can be dialled on network.
func familyMatches(network string, a netip.Addr) bool {
	switch network {
	case "tcp4":
		return a.Is4()
	case "tcp6":
		return a.Is6()
	}
	return true
}

// urlPort is the port a URL's call goes to: the one written, else the
// scheme's.
func urlPort(u *url.URL) (uint16, error) {
	p := u.Port()
	if p == "" {
		if strings.EqualFold(u.Scheme, "https") {
			return 443, nil
		}
		return 80, nil
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil {
		return 0, fmt.Errorf("port %q is not a number from 0 to 65535", p)
	}
	return uint16(n), nil
}
