package outbound

import (
	"fmt"
	"net/netip"
	"strconv"
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
//     which permits that name whatever it resolves to (but a cloud metadata
//     address, below);
//   - a wildcard "*.example.internal", which permits every name under
//     example.internal at any depth, but not example.internal itself;
//   - an IP address or a CIDR ("127.0.0.1", "10.0.0.0/8", "fd00::/8"),
//     which permits the addresses within, however a URL spells them.
//
// Each may name a port: "vault.corp:8200", "*.svc.local:8080",
// "10.0.0.5:5432", "10.0.0.0/8:443", "[fd00::1]:8080", "[fd00::/8]:443".
// An entry without a port permits every port of what it names.
//
// A host-name entry also opens a name the guard refuses by name alone
// ("localhost"); it never opens a URL whose host is an address, since
// "127.1" in a URL is the address 127.0.0.1, not a name.
//
// Cloud metadata services hand out the host's credentials, so opening one
// takes an entry for that very address or name, marked with a trailing "!"
// ("169.254.169.254!", "metadata.google.internal!"): the same entry without
// "!" is refused when the list is parsed, a CIDR or a wildcard never opens
// one (10.0.0.0/8 with 169.254.0.0/16 beside it still refuses
// 169.254.169.254), and a name entry without "!" does not open a metadata
// address the name resolves to.
type Allowlist struct {
	rules []allowRule
}

// allowRule is one entry.
type allowRule struct {
	name     string       // exact lowercase name, or ".example.internal" for a wildcard
	wild     bool         // name is a wildcard's suffix
	prefix   netip.Prefix // an address or CIDR entry; invalid for a name
	port     uint16       // 0 permits every port
	metadata bool         // "!": the entry opens the metadata address or name it is
}

func (r allowRule) portOK(port uint16) bool { return r.port == 0 || r.port == port }

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
		r, err := parseRule(entry)
		if err != nil {
			return Allowlist{}, fmt.Errorf("allowlist entry %q: %w", entry, err)
		}
		a.rules = append(a.rules, r)
	}
	return a, nil
}

// parseRule parses one entry.
func parseRule(entry string) (allowRule, error) {
	var r allowRule
	entry, r.metadata = strings.CutSuffix(entry, "!")
	if strings.Contains(entry, "://") {
		return r, fmt.Errorf("not a host name, IP address or CIDR (write the host alone, without scheme or path)")
	}
	target, port, err := splitEntryPort(entry)
	if err != nil {
		return r, err
	}
	r.port = port
	if err := r.parseTarget(target); err != nil {
		return r, err
	}
	return r, r.checkMetadata(target)
}

// parseTarget parses the entry without its port and "!".
func (r *allowRule) parseTarget(entry string) error {
	if p, err := netip.ParsePrefix(entry); err == nil {
		if p.Addr().Is4In6() {
			return fmt.Errorf("write an IPv4 CIDR in IPv4 form, e.g. 10.0.0.0/8")
		}
		r.prefix = p.Masked()
		return nil
	}
	if addr, err := netip.ParseAddr(entry); err == nil {
		if addr.Zone() != "" {
			return fmt.Errorf("an address with a zone cannot be allowed; write it without %%%s", addr.Zone())
		}
		addr = addr.Unmap()
		r.prefix = netip.PrefixFrom(addr, addr.BitLen())
		return nil
	}
	if strings.Contains(entry, "/") {
		return fmt.Errorf("not a valid CIDR (write it as 10.0.0.0/8 or fd00::/8)")
	}
	if strings.Contains(entry, ":") {
		return fmt.Errorf("not a host name, IP address or CIDR")
	}
	lower := strings.ToLower(entry)
	if rest, ok := strings.CutPrefix(lower, "*."); ok {
		rest = strings.TrimRight(rest, ".")
		if !validHostName(rest) {
			return fmt.Errorf("not a valid wildcard: write it as *.example.internal")
		}
		r.name, r.wild = "."+rest, true
		return nil
	}
	name := strings.TrimRight(lower, ".")
	if _, ok := parseIPv4Loose(name); ok {
		return fmt.Errorf("write the address in dotted-decimal form, e.g. 127.0.0.1")
	}
	if !validHostName(name) {
		return fmt.Errorf("not a host name, IP address or CIDR")
	}
	r.name = name
	return nil
}

// checkMetadata refuses an entry that would open a cloud metadata address
// or name without "!", and "!" on an entry that opens none.
func (r allowRule) checkMetadata(target string) error {
	var meta bool
	switch {
	case r.wild || (r.prefix.IsValid() && !r.prefix.IsSingleIP()):
		if r.metadata {
			return fmt.Errorf(`"!" opens a cloud metadata address or name only in an entry for that one address or name; a CIDR or a wildcard never opens one`)
		}
		return nil
	case r.prefix.IsValid():
		meta = isMetadata(r.prefix.Addr())
	default:
		meta = metadataNames[r.name]
	}
	if meta && !r.metadata {
		return fmt.Errorf(`%s is a cloud metadata service, which hands out this host's credentials; write "%s!" to allow it anyway`, target, target)
	}
	if !meta && r.metadata {
		return fmt.Errorf(`"!" marks an entry that opens a cloud metadata address or name, and %s is not one`, target)
	}
	return nil
}

// splitEntryPort splits "host:port", "cidr:port", "[v6]:port" and
// "[v6/len]:port"; an entry without a port gives port 0. A bare IPv6
// address or CIDR has colons of its own and no port.
func splitEntryPort(entry string) (target string, port uint16, err error) {
	if _, err := netip.ParsePrefix(entry); err == nil {
		return entry, 0, nil
	}
	if _, err := netip.ParseAddr(entry); err == nil {
		return entry, 0, nil
	}
	rawPort := ""
	switch {
	case strings.HasPrefix(entry, "["):
		end := strings.IndexByte(entry, ']')
		if end < 0 {
			return "", 0, fmt.Errorf("an IPv6 address with a port is written [fd00::1]:8080")
		}
		target = entry[1:end]
		if rest := entry[end+1:]; rest != "" {
			var ok bool
			if rawPort, ok = strings.CutPrefix(rest, ":"); !ok {
				return "", 0, fmt.Errorf("an IPv6 address with a port is written [fd00::1]:8080")
			}
		}
	case strings.Count(entry, ":") == 1:
		target, rawPort, _ = strings.Cut(entry, ":")
	case strings.Contains(entry, ":"):
		return "", 0, fmt.Errorf("not a valid IPv6 address or CIDR (with a port, write it as [fd00::1]:8080)")
	default:
		return entry, 0, nil
	}
	if rawPort == "" {
		if strings.HasPrefix(entry, "[") {
			return target, 0, nil
		}
		return "", 0, fmt.Errorf("the port after %q is missing", target)
	}
	n, err := strconv.ParseUint(rawPort, 10, 16)
	if err != nil || n == 0 {
		return "", 0, fmt.Errorf("port %q: must be a number from 1 to 65535", rawPort)
	}
	return target, uint16(n), nil
}

// allowsName reports whether a normalised host name is allowlisted, on
// port, by an exact or a wildcard entry, and whether that entry opens the
// metadata addresses the name may resolve to. A wildcard never opens a
// metadata name.
func (a Allowlist) allowsName(name string, port uint16) (ok, metadata bool) {
	for _, r := range a.rules {
		if r.name == "" || !r.portOK(port) {
			continue
		}
		if r.wild {
			if strings.HasSuffix(name, r.name) && !metadataNames[name] {
				return true, false
			}
			continue
		}
		if r.name == name {
			return true, r.metadata
		}
	}
	return false, false
}

// allowsAddr reports whether addr, on port, lies within an address or CIDR
// entry. An IPv4-mapped address matches IPv4 entries, since it reaches the
// same host. A metadata address is opened only by its own entry marked
// "!".
func (a Allowlist) allowsAddr(addr netip.Addr, port uint16) bool {
	addr = addr.WithZone("").Unmap()
	metadata := isMetadata(addr)
	for _, r := range a.rules {
		if !r.prefix.IsValid() || !r.prefix.Contains(addr) || !r.portOK(port) {
			continue
		}
		if metadata && !r.metadata {
			continue
		}
		return true
	}
	return false
}

// String returns the allowlist in the syntax ParseAllowlist reads, for logs.
func (a Allowlist) String() string {
	parts := make([]string, 0, len(a.rules))
	for _, r := range a.rules {
		var s string
		switch {
		case r.wild:
			s = "*" + r.name
		case r.name != "":
			s = r.name
		case r.prefix.IsSingleIP():
			s = r.prefix.Addr().String()
		default:
			s = r.prefix.String()
		}
		if r.port != 0 {
			if r.prefix.IsValid() && r.prefix.Addr().Is6() {
				s = "[" + s + "]"
			}
			s += ":" + strconv.Itoa(int(r.port))
		}
		if r.metadata {
			s += "!"
		}
		parts = append(parts, s)
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
