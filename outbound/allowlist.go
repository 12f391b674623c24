package outbound

import (
	"fmt"
	"net/netip"
	"strings"
)

// EnvAllow is the environment variable that holds the operator's allowlist,
// comma-separated, in the syntax of ParseAllowlist.
const EnvAllow = "WETEL_OUTBOUND_ALLOW"

// Allowlist is the operator's list of internal services outbound calls may
// reach although the guard would refuse them. The zero Allowlist allows
// nothing extra.
//
// An entry is one of:
//   - a host name, matched exactly and case-insensitively ("vault.corp"),
//     which permits that name whatever it resolves to;
//   - a wildcard "*.example.internal", which permits every name under
//     example.internal at any depth, but not example.internal itself;
//   - an IP address or a CIDR ("127.0.0.1", "10.0.0.0/8", "fd00::/8"),
//     which permits the addresses within, however a URL spells them.
//
// A host-name entry also opens a name the guard refuses by name alone
// ("localhost", "metadata"); it never opens a URL whose host is an address,
// since "127.1" in a URL is the address 127.0.0.1, not a name. Ports are not
// part of an entry: allowing a host allows all its ports.
// A cloud metadata address (169.254.169.254 and the like) is opened only by
// an entry for that very address, never by a wider CIDR such as
// 169.254.0.0/16, so opening a subnet does not hand out cloud credentials.
type Allowlist struct {
	names    []string // exact, lowercase, without trailing dots
	suffixes []string // ".example.internal" for "*.example.internal"
	prefixes []netip.Prefix
}

// ParseAllowlist reads a comma-separated allowlist, as given by repeated
// --allow-host flags joined with commas or by WETEL_OUTBOUND_ALLOW. Blank
// entries are skipped. The error names the first bad entry and says why.
func ParseAllowlist(s string) (Allowlist, error) {
	var a Allowlist
	for _, raw := range strings.Split(s, ",") {
		entry := strings.TrimSpace(raw)
		if entry == "" {
			continue
		}
		if err := a.add(entry); err != nil {
			return Allowlist{}, fmt.Errorf("allowlist entry %q: %w", entry, err)
		}
	}
	return a, nil
}

// add parses one entry into a.
func (a *Allowlist) add(entry string) error {
	if p, err := netip.ParsePrefix(entry); err == nil {
		if p.Addr().Is4In6() {
			return fmt.Errorf("write an IPv4 CIDR in IPv4 form, e.g. 10.0.0.0/8")
		}
		a.prefixes = append(a.prefixes, p.Masked())
		return nil
	}
	if addr, err := netip.ParseAddr(entry); err == nil {
		if addr.Zone() != "" {
			return fmt.Errorf("an address with a zone cannot be allowed; write it without %%%s", addr.Zone())
		}
		addr = addr.Unmap()
		a.prefixes = append(a.prefixes, netip.PrefixFrom(addr, addr.BitLen()))
		return nil
	}
	if strings.Contains(entry, "://") {
		return fmt.Errorf("not a host name, IP address or CIDR (write the host alone, without scheme or path)")
	}
	if strings.Contains(entry, "/") {
		return fmt.Errorf("not a valid CIDR (write it as 10.0.0.0/8 or fd00::/8)")
	}
	if strings.Contains(entry, ":") {
		return fmt.Errorf("not a host name, IP address or CIDR (ports are not supported: allow the host)")
	}
	lower := strings.ToLower(entry)
	if rest, ok := strings.CutPrefix(lower, "*."); ok {
		rest = strings.TrimRight(rest, ".")
		if !validHostName(rest) {
			return fmt.Errorf("not a valid wildcard: write it as *.example.internal")
		}
		a.suffixes = append(a.suffixes, "."+rest)
		return nil
	}
	name := strings.TrimRight(lower, ".")
	if _, ok := parseIPv4Loose(name); ok {
		return fmt.Errorf("write the address in dotted-decimal form, e.g. 127.0.0.1")
	}
	if !validHostName(name) {
		return fmt.Errorf("not a host name, IP address or CIDR")
	}
	a.names = append(a.names, name)
	return nil
}

// allowsName reports whether a normalised host name is allowlisted by an
// exact or a wildcard entry.
func (a Allowlist) allowsName(name string) bool {
	for _, n := range a.names {
		if n == name {
			return true
		}
	}
	for _, suffix := range a.suffixes {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// allowsAddr reports whether addr lies within an address or CIDR entry. An
// IPv4-mapped address matches IPv4 entries, since it reaches the same host.
func (a Allowlist) allowsAddr(addr netip.Addr) bool {
	addr = addr.WithZone("").Unmap()
	metadata := isMetadata(addr)
	for _, p := range a.prefixes {
		if !p.Contains(addr) {
			continue
		}
		if metadata && !p.IsSingleIP() {
			continue
		}
		return true
	}
	return false
}

// String returns the allowlist in the syntax ParseAllowlist reads, for logs.
func (a Allowlist) String() string {
	var parts []string
	parts = append(parts, a.names...)
	for _, s := range a.suffixes {
		parts = append(parts, "*"+s)
	}
	for _, p := range a.prefixes {
		if p.IsSingleIP() {
			parts = append(parts, p.Addr().String())
		} else {
			parts = append(parts, p.String())
		}
	}
	return strings.Join(parts, ",")
}

// isMetadata reports whether addr is a cloud metadata address, directly or
// embedded in an IPv6 address (64:ff9b::a9fe:a9fe reaches it through NAT64).
func isMetadata(addr netip.Addr) bool {
	for _, r := range metadataRanges {
		if r.prefix.Contains(addr) {
			return true
		}
	}
	if v4, _, ok := embeddedIPv4(addr); ok {
		for _, inner := range v4 {
			if isMetadata(inner) {
				return true
			}
		}
	}
	return false
}
