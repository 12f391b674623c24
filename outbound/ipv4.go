package outbound

import (
	"net/netip"
	"strings"
)

// parseIPv4Loose parses s the way inet_aton(3) and the WHATWG URL standard
// read an IPv4 host, so that every spelling an operating system or a browser
// might connect to is judged as the address it means. Rule: "Strange IP
// spellings (decimal, octal, hex, short forms, mixed) must be resolved to
// the IP they mean before the check."
//
// The host has one to four dot-separated parts. Each part is decimal, octal
// with a leading 0, or hexadecimal with a leading 0x or 0X (an empty "0x"
// is zero). Every part but the last is one byte; the last fills the bytes
// that remain, so "127.1" is 127.0.0.1 and "2130706433" is 127.0.0.1 too.
// Trailing dots are the caller's to remove.
func parseIPv4Loose(s string) (netip.Addr, bool) {
	if s == "" {
		return netip.Addr{}, false
	}
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var ip uint64
	for i, p := range parts {
		v, ok := parseIPv4Part(p)
		if !ok {
			return netip.Addr{}, false
		}
		if i < len(parts)-1 {
			if v > 0xff {
				return netip.Addr{}, false
			}
			ip |= v << (8 * (3 - i))
			continue
		}
		// The last part fills the remaining 4-i bytes.
		if v >= 1<<(8*(4-i)) {
			return netip.Addr{}, false
		}
		ip |= v
	}
	return netip.AddrFrom4([4]byte{byte(ip >> 24), byte(ip >> 16), byte(ip >> 8), byte(ip)}), true
}

// parseIPv4Part reads one part of a loose IPv4 host. Values above 32 bits
// fail early, so a long run of digits cannot overflow.
func parseIPv4Part(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, p = 16, p[2:]
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	}
	var v uint64
	for i := 0; i < len(p); i++ {
		d, ok := digitValue(p[i])
		if !ok || d >= base {
			return 0, false
		}
		v = v*base + d
		if v > 0xffffffff {
			return 0, false
		}
	}
	return v, true
}

// digitValue is the value of a decimal or hexadecimal digit.
func digitValue(c byte) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}
