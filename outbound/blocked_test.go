package outbound

import (
	"net/netip"
	"strings"
	"testing"
)

func TestBlocked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr    string
		blocked bool
		kind    string
	}{
		{"127.0.0.1", true, "a loopback address"},
		{"::1", true, "a loopback address"},
		{"10.255.255.255", true, "private"},
		{"172.15.255.255", false, ""},
		{"172.16.0.0", true, "private"},
		{"172.32.0.0", false, ""},
		{"192.167.255.255", false, ""},
		{"100.63.255.255", false, ""},
		{"100.64.0.0", true, "carrier-grade NAT"},
		{"100.127.255.255", true, "carrier-grade NAT"},
		{"100.128.0.0", false, ""},
		{"169.254.169.254", true, "a cloud metadata address"},
		{"100.100.100.200", true, "a cloud metadata address"},
		{"168.63.129.16", true, "a cloud metadata address"},
		{"fd00:ec2::254", true, "a cloud metadata address"},
		{"fe80::1%eth0", true, "a link-local address"},
		{"febf:ffff::1", true, "link-local"},
		{"fc00::", true, "unique-local"},
		{"0.0.0.0", true, "the unspecified address"},
		{"0.255.255.255", true, "this network"},
		{"255.255.255.255", true, "the broadcast address"},
		{"239.255.255.250", true, "multicast"},
		{"240.0.0.0", true, "reserved"},
		{"198.19.255.255", true, "benchmarking"},
		{"198.20.0.0", false, ""},
		{"8.8.8.8", false, ""},
		{"93.184.215.14", false, ""},
		{"2606:4700:4700::1111", false, ""},
		{"::ffff:8.8.8.8", false, ""},
		{"::ffff:127.0.0.1", true, "IPv4-mapped address of 127.0.0.1, a loopback address"},
		{"::ffff:0:a00:1", true, "IPv4-translated address of 10.0.0.1"},
		{"::8.8.8.8", true, "IPv4-compatible"},
		{"64:ff9b::8.8.8.8", false, ""},
		{"64:ff9b::a9fe:a9fe", true, "NAT64 address of 169.254.169.254, a cloud metadata address"},
		{"64:ff9b:1::1", true, "local-use NAT64"},
		{"2002:808:808::", false, ""},
		{"2002:a00:1::", true, "6to4 address of 10.0.0.1"},
		// Teredo: server 65.54.227.120, client 192.0.2.45 stored inverted.
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", true, "Teredo address of 192.0.2.45, a documentation address"},
		{"2001:0:4136:e378:8000:63bf:f7f7:f7f7", false, ""},
		{"2001:0:a00:1::", true, "Teredo address of 10.0.0.1"},
		{"4000::1", true, "outside the global unicast range"},
		{"::fffe:1:2", true, "outside the global unicast range"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			t.Parallel()
			a := netip.MustParseAddr(tt.addr)
			if got := Blocked(a); got != tt.blocked {
				t.Fatalf("Blocked(%s) = %v, want %v", tt.addr, got, tt.blocked)
			}
			kind, _ := blockedKind(a)
			if !strings.Contains(kind, tt.kind) {
				t.Errorf("blockedKind(%s) = %q, want it to contain %q", tt.addr, kind, tt.kind)
			}
		})
	}
}

func TestBlockedZeroAddr(t *testing.T) {
	t.Parallel()
	if !Blocked(netip.Addr{}) {
		t.Fatal("Blocked(netip.Addr{}) = false, want true: an invalid address must fail closed")
	}
}
