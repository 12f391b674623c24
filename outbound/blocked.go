package outbound

import "net/netip"

// blockedRange is a range outbound calls refuse, with the words that say what
// it is in a refusal ("127.0.0.1 is a loopback address").
type blockedRange struct {
	prefix netip.Prefix
	kind   string
}

// metadataRanges are the cloud providers' instance-metadata endpoints. They
// come first so that a refusal names the real danger (credentials) rather
// than the range around it, and because an allowlisted CIDR does not open
// them (see Allowlist).
var metadataRanges = ranges("a cloud metadata address",
	"169.254.169.254/32", // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
	"169.254.170.2/32",   // AWS ECS task metadata and credentials
	"100.100.100.200/32", // Alibaba Cloud
	"168.63.129.16/32",   // Azure WireServer: a public address that only the host answers
	"fd00:ec2::254/128",  // AWS over IPv6
)

// blockedRanges are checked in order, most specific first. Rule: refuse
// loopback, private, link-local, CGNAT, unique-local, unspecified,
// multicast, broadcast, 0.0.0.0/8, reserved, benchmarking and documentation
// ranges.
var blockedRanges = concat(
	metadataRanges,
	ranges("the unspecified address", "0.0.0.0/32", "::/128"),
	ranges(`a "this network" address (0.0.0.0/8)`, "0.0.0.0/8"),
	ranges("a loopback address", "127.0.0.0/8", "::1/128"),
	ranges("a private address (RFC 1918)", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"),
	ranges("a carrier-grade NAT address (100.64.0.0/10)", "100.64.0.0/10"),
	ranges("a link-local address", "169.254.0.0/16", "fe80::/10"),
	ranges("an IETF protocol assignment address (192.0.0.0/24)", "192.0.0.0/24"),
	ranges("a documentation address", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24",
		"2001:db8::/32", "3fff::/20"),
	ranges("a 6to4 relay anycast address (192.88.99.0/24)", "192.88.99.0/24"),
	ranges("a benchmarking address", "198.18.0.0/15", "2001:2::/48"),
	ranges("a multicast address", "224.0.0.0/4", "ff00::/8"),
	ranges("the broadcast address", "255.255.255.255/32"),
	ranges("a reserved address (240.0.0.0/4)", "240.0.0.0/4"),
	ranges("a unique-local address (fc00::/7)", "fc00::/7"),
	ranges("a site-local address (fec0::/10)", "fec0::/10"),
	ranges("a discard-only address (100::/64)", "100::/64"),
	ranges("a local-use NAT64 address (64:ff9b:1::/48)", "64:ff9b:1::/48"),
)

// globalUnicast is the only IPv6 space with public services; an IPv6
// address outside it that no rule above names is refused all the same, so a
// range the table forgot fails closed.
var globalUnicast = netip.MustParsePrefix("2000::/3")

// Blocked reports whether outbound calls refuse a, before any allowlist is
// consulted. An IPv6 address that embeds an IPv4 address (IPv4-mapped
// ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96,
// 6to4 2002::/16, Teredo 2001::/32) is judged by the IPv4 address it embeds;
// IPv4-compatible addresses (::a.b.c.d, deprecated) are always blocked. A
// zone is ignored and the zero Addr is blocked.
func Blocked(a netip.Addr) bool {
	_, blocked := blockedKind(a)
	return blocked
}

// blockedKind says what a is when it is blocked, in words that complete
// "<address> is ...".
func blockedKind(a netip.Addr) (kind string, blocked bool) {
	if !a.IsValid() {
		return "not a valid address", true
	}
	a = a.WithZone("")
	for _, r := range blockedRanges {
		if r.prefix.Contains(a) {
			return r.kind, true
		}
	}
	if a.Is4() {
		return "", false
	}
	// Rule: "IPv4-mapped IPv6 — judge the embedded IPv4"; likewise every
	// other form that reaches an IPv4 host.
	if v4, form, ok := embeddedIPv4(a); ok {
		if form == "an IPv4-compatible address" {
			return form + " (deprecated, never a public service)", true
		}
		for _, inner := range v4 {
			if kind, blocked := blockedKind(inner); blocked {
				return form + " of " + inner.String() + ", " + kind, true
			}
		}
		return "", false
	}
	if !globalUnicast.Contains(a) {
		return "outside the global unicast range (2000::/3)", true
	}
	return "", false
}

// Embedding IPv6 ranges, see embeddedIPv4.
var (
	ipv4Compatible = netip.MustParsePrefix("::/96")
	ipv4Translated = netip.MustParsePrefix("::ffff:0:0:0/96")
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
	teredo         = netip.MustParsePrefix("2001::/32")
)

// embeddedIPv4 returns the IPv4 addresses a carries and the name of its
// form. Teredo carries two: the server's, and the client's stored inverted.
func embeddedIPv4(a netip.Addr) (v4 []netip.Addr, form string, ok bool) {
	b := a.As16()
	last := netip.AddrFrom4([4]byte(b[12:16]))
	switch {
	case a.Is4In6():
		return []netip.Addr{a.Unmap()}, "an IPv4-mapped address", true
	case ipv4Compatible.Contains(a):
		return []netip.Addr{last}, "an IPv4-compatible address", true
	case ipv4Translated.Contains(a):
		return []netip.Addr{last}, "an IPv4-translated address", true
	case nat64.Contains(a):
		return []netip.Addr{last}, "a NAT64 address", true
	case sixToFour.Contains(a):
		return []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}, "a 6to4 address", true
	case teredo.Contains(a):
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		return []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4(client)}, "a Teredo address", true
	}
	return nil, "", false
}

// ranges builds a table part; the prefixes are constants of this file, so a
// typo panics when the package loads, in every test.
func ranges(kind string, prefixes ...string) []blockedRange {
	out := make([]blockedRange, len(prefixes))
	for i, p := range prefixes {
		out[i] = blockedRange{prefix: netip.MustParsePrefix(p), kind: kind}
	}
	return out
}

func concat(parts ...[]blockedRange) []blockedRange {
	var out []blockedRange
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
