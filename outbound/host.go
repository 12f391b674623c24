package outbound

import (
	"fmt"
	"net/netip"
	"strings"
)

// host is a URL's or a dial's host as the guard understands it: either an
// address, however it was spelled, or a normalised host name.
type host struct {
	// written is the host as it was written, for messages.
	written string
	// name is the lowercase host name without trailing dots; empty when the
	// host is an address.
	name string
	// addr is the address the host means when it is one.
	addr netip.Addr
	// respelled reports that addr was written some other way than its
	// canonical form ("0x7f.1" for 127.0.0.1), so messages say what it means.
	respelled bool
	// port is the port the call goes to, for allowlist entries that name
	// one.
	port uint16
}

// parseHost reads a host without its port or brackets, as url.URL.Hostname
// and net.SplitHostPort return it. Rule: "handle IPv6 zone ids, brackets,
// trailing dots, uppercase": a zone is kept on the address (Blocked ignores
// it), case and trailing dots are folded away. The error is a plain-words
// reason.
func parseHost(s string) (host, error) {
	h := host{written: s}
	if s == "" {
		return h, fmt.Errorf("the URL has no host")
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			// The HTTP transport would map a Unicode host through IDNA, whose
			// mappings (full-width digits become ASCII digits) this guard
			// does not reproduce; asking for the ASCII form keeps one reading.
			return h, fmt.Errorf("host %q is not ASCII: write it in its ASCII (xn--) form", s)
		}
	}
	if strings.Contains(s, ":") {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return h, fmt.Errorf("host %q is not a valid IPv6 address", s)
		}
		h.addr = a
		h.respelled = a.String() != s
		return h, nil
	}
	norm := strings.TrimRight(strings.ToLower(s), ".")
	if a, ok := parseIPv4Loose(norm); ok {
		h.addr = a
		h.respelled = a.String() != s
		return h, nil
	}
	if !validHostName(norm) {
		return h, fmt.Errorf("host %q is not a valid host name", s)
	}
	h.name = norm
	return h, nil
}

// validHostName accepts letters, digits, hyphens and underscores in
// non-empty dot-separated labels. Anything else (";", "!", "%") would be left
// to a resolver to interpret, differently on each system.
func validHostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// metadataNames are the cloud metadata services' host names. Rule: refuse
// "metadata host names like metadata.google.internal / metadata".
var metadataNames = map[string]bool{
	"metadata":                   true, // GCP's short name, and a common search-domain trick
	"metadata.google.internal":   true,
	"metadata.goog":              true,
	"instance-data":              true, // AWS
	"instance-data.ec2.internal": true,
}

// loopbackNames are names every system resolves to itself, refused before
// any lookup so that the author hears why at save time.
var loopbackNames = map[string]bool{
	"localhost":             true,
	"localhost.localdomain": true,
	"ip6-localhost":         true,
	"ip6-loopback":          true,
}

// blockedNameKind says what a normalised host name is when outbound calls
// refuse it by name alone, in words that complete "<name> is ...".
func blockedNameKind(name string) (kind string, blocked bool) {
	switch {
	case metadataNames[name]:
		return "a cloud metadata host name", true
	// RFC 6761: "localhost" and every name under it are loopback.
	case loopbackNames[name] || strings.HasSuffix(name, ".localhost"):
		return "a loopback host name", true
	}
	return "", false
}
