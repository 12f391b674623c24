package outbound

import (
	"net/netip"
	"testing"
)

func TestParseIPv4Loose(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // "" when s is not an IPv4 spelling
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0x7f.0.0.1", "127.0.0.1"},
		{"0X7F.0x0.00.0x01", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"10.0x10203", "10.1.2.3"},
		{"192.168.0x101", "192.168.1.1"},
		{"0", "0.0.0.0"},
		{"0x", "0.0.0.0"},
		{"00", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"0xffffffff", "255.255.255.255"},
		{"037777777777", "255.255.255.255"},
		{"4294967296", ""},
		{"1.16777216", ""},
		{"1.2.65536", ""},
		{"256.0.0.1", ""},
		{"1.2.3.256", ""},
		{"1.2.3.4.5", ""},
		{"08.0.0.1", ""},
		{"0x1g.0.0.1", ""},
		{"1..2", ""},
		{".1.2.3", ""},
		{"", ""},
		{"-1", ""},
		{"+1", ""},
		{"example", ""},
		{"99999999999999999999999", ""},
	}
	for _, tt := range tests {
		got, ok := parseIPv4Loose(tt.in)
		switch {
		case tt.want == "" && ok:
			t.Errorf("parseIPv4Loose(%q) = %s, want not an address", tt.in, got)
		case tt.want != "" && (!ok || got.String() != tt.want):
			t.Errorf("parseIPv4Loose(%q) = %s, %v; want %s", tt.in, got, ok, tt.want)
		}
	}
}

// FuzzParseIPv4Loose checks that the loose parser agrees with netip on
// every dotted-quad netip accepts, and never panics.
func FuzzParseIPv4Loose(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "0x7f.1", "2130706433", "0177.0.0.01", "1.2.3.4.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseIPv4Loose(s)
		if ok && !got.Is4() {
			t.Fatalf("parseIPv4Loose(%q) = %s, not IPv4", s, got)
		}
		if want, err := netip.ParseAddr(s); err == nil && want.Is4() && (!ok || got != want) {
			t.Fatalf("parseIPv4Loose(%q) = %s, %v; netip reads %s", s, got, ok, want)
		}
	})
}
