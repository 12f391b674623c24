package outbound

import (
	"net/netip"
	"strings"
	"testing"
)

func TestParseAllowlist(t *testing.T) {
	t.Parallel()
	a, err := ParseAllowlist(" Vault.Corp. ,*.example.internal,10.0.0.0/8,127.0.0.1/32, ::1 ,fd00::/8,,10.1.2.3/8")
	if err != nil {
		t.Fatalf("ParseAllowlist: %v", err)
	}
	const want = "vault.corp,*.example.internal,10.0.0.0/8,127.0.0.1,::1,fd00::/8,10.0.0.0/8"
	if got := a.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	names := []struct {
		name string
		ok   bool
	}{
		{"vault.corp", true},
		{"a.example.internal", true},
		{"a.b.example.internal", true},
		{"example.internal", false},
		{"badexample.internal", false},
		{"vault.corp.evil", false},
		{"x.vault.corp", false},
	}
	for _, n := range names {
		if got := a.allowsName(n.name); got != n.ok {
			t.Errorf("allowsName(%q) = %v, want %v", n.name, got, n.ok)
		}
	}
	addrs := []struct {
		addr string
		ok   bool
	}{
		{"10.200.0.1", true},
		{"127.0.0.1", true},
		{"::ffff:127.0.0.1", true},
		{"127.0.0.2", false},
		{"::1", true},
		{"fd12::1", true},
		{"fe80::1", false},
		{"192.168.0.1", false},
	}
	for _, c := range addrs {
		if got := a.allowsAddr(netip.MustParseAddr(c.addr)); got != c.ok {
			t.Errorf("allowsAddr(%s) = %v, want %v", c.addr, got, c.ok)
		}
	}
}

// A cloud metadata address is opened by an entry for that address only.
func TestAllowlistMetadataNeedsExactEntry(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		allow, addr string
		ok          bool
	}{
		{"169.254.0.0/16", "169.254.169.254", false},
		{"169.254.0.0/16", "169.254.1.1", true},
		{"169.254.169.254", "169.254.169.254", true},
		{"169.254.169.254/32", "169.254.169.254", true},
		{"fd00::/8", "fd00:ec2::254", false},
		{"64:ff9b::/96", "64:ff9b::a9fe:a9fe", false},
		{"100.64.0.0/10", "100.100.100.200", false},
	} {
		a, err := ParseAllowlist(tt.allow)
		if err != nil {
			t.Fatalf("ParseAllowlist(%q): %v", tt.allow, err)
		}
		if got := a.allowsAddr(netip.MustParseAddr(tt.addr)); got != tt.ok {
			t.Errorf("allowlist %q allowsAddr(%s) = %v, want %v", tt.allow, tt.addr, got, tt.ok)
		}
	}
}

func TestParseAllowlistErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"ok.host,not a host!", `allowlist entry "not a host!": not a host name, IP address or CIDR`},
		{"10.0.0.0/33", `allowlist entry "10.0.0.0/33": not a valid CIDR`},
		{"vault.corp:8200", `allowlist entry "vault.corp:8200": not a host name, IP address or CIDR (ports are not supported`},
		{"127.0.0.1:8080", "ports are not supported"},
		{"[::1]:80", "ports are not supported"},
		{"127.1", `allowlist entry "127.1": write the address in dotted-decimal form`},
		{"2130706433", "dotted-decimal"},
		{"*.", `allowlist entry "*.": not a valid wildcard`},
		{"*example.com", "not a host name"},
		{"a.*.example.com", "not a host name"},
		{"fe80::1%eth0", "zone"},
		{"::ffff:10.0.0.0/104", "IPv4 form"},
		{"http://vault.corp", "not a host name"},
	}
	for _, tt := range tests {
		_, err := ParseAllowlist(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseAllowlist(%q) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}

func TestParseAllowlistEmpty(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", " ", ",", " , ,"} {
		a, err := ParseAllowlist(in)
		if err != nil || a.String() != "" {
			t.Errorf("ParseAllowlist(%q) = %q, %v; want an empty allowlist", in, a, err)
		}
	}
}
