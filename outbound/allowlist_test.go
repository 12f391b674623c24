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
		if got, _ := a.allowsName(n.name, 443); got != n.ok {
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
		if got := a.allowsAddr(netip.MustParseAddr(c.addr), 443); got != c.ok {
			t.Errorf("allowsAddr(%s) = %v, want %v", c.addr, got, c.ok)
		}
	}
}

// A cloud metadata address is opened by an entry for that address only,
// marked "!".
func TestAllowlistMetadataNeedsExactEntry(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		allow, addr string
		ok          bool
	}{
		{"169.254.0.0/16", "169.254.169.254", false},
		{"169.254.0.0/16", "169.254.1.1", true},
		{"169.254.169.254!", "169.254.169.254", true},
		{"169.254.169.254/32!", "169.254.169.254", true},
		{"169.254.169.254:80!", "169.254.169.254", false}, // another port
		{"fd00::/8", "fd00:ec2::254", false},
		{"64:ff9b::/96", "64:ff9b::a9fe:a9fe", false},
		{"100.64.0.0/10", "100.100.100.200", false},
	} {
		a, err := ParseAllowlist(tt.allow)
		if err != nil {
			t.Fatalf("ParseAllowlist(%q): %v", tt.allow, err)
		}
		if got := a.allowsAddr(netip.MustParseAddr(tt.addr), 443); got != tt.ok {
			t.Errorf("allowlist %q allowsAddr(%s) = %v, want %v", tt.allow, tt.addr, got, tt.ok)
		}
	}
}

// Issue 10: an entry that would open a cloud metadata address or name is
// refused when the list is read, unless it is marked "!".
func TestAllowlistMetadataRefusedAtLoad(t *testing.T) {
	t.Parallel()
	for _, entry := range []string{"169.254.169.254", "169.254.169.254/32", "fd00:ec2::254", "[fd00:ec2::254]:80",
		"100.100.100.200", "168.63.129.16", "169.254.170.2:80", "64:ff9b::a9fe:a9fe", "metadata.google.internal",
		"Metadata", "instance-data.ec2.internal:80"} {
		_, err := ParseAllowlist("10.0.0.0/8," + entry)
		if err == nil || !strings.Contains(err.Error(), "cloud metadata service") || !strings.Contains(err.Error(), `!"`) {
			t.Errorf("ParseAllowlist(%q) = %v, want a refusal saying how to mark it", entry, err)
		}
		if _, err := ParseAllowlist(entry + "!"); err != nil {
			t.Errorf("ParseAllowlist(%q!) = %v, want it allowed", entry, err)
		}
	}
	for _, entry := range []string{"10.0.0.5!", "vault.corp!", "169.254.0.0/16!", "*.google.internal!"} {
		if _, err := ParseAllowlist(entry); err == nil || !strings.Contains(err.Error(), `"!"`) {
			t.Errorf("ParseAllowlist(%q) = %v, want \"!\" refused", entry, err)
		}
	}
	// A wildcard over a metadata name never opens it.
	a, err := ParseAllowlist("*.google.internal,*.internal")
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := a.allowsName("metadata.google.internal", 80); ok {
		t.Error("a wildcard opened metadata.google.internal")
	}
	if ok, _ := a.allowsName("build.google.internal", 80); !ok {
		t.Error("the wildcard does not open build.google.internal")
	}
}

// Entries may name a port; an entry without one opens every port.
func TestAllowlistPorts(t *testing.T) {
	t.Parallel()
	a, err := ParseAllowlist("vault.corp:8200,*.svc.local:8080,10.0.0.5:5432,10.1.0.0/16:443,[fd00::1]:8080,[fd01::/16]:443,db.corp,[::1]")
	if err != nil {
		t.Fatal(err)
	}
	const want = "vault.corp:8200,*.svc.local:8080,10.0.0.5:5432,10.1.0.0/16:443,[fd00::1]:8080,[fd01::/16]:443,db.corp,::1"
	if got := a.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if again, err := ParseAllowlist(a.String()); err != nil || again.String() != want {
		t.Errorf("String does not read back: %q, %v", again.String(), err)
	}
	for _, tt := range []struct {
		name string
		port uint16
		ok   bool
	}{
		{"vault.corp", 8200, true}, {"vault.corp", 443, false},
		{"a.svc.local", 8080, true}, {"a.svc.local", 80, false},
		{"db.corp", 1, true}, {"db.corp", 65535, true},
	} {
		if got, _ := a.allowsName(tt.name, tt.port); got != tt.ok {
			t.Errorf("allowsName(%s, %d) = %v, want %v", tt.name, tt.port, got, tt.ok)
		}
	}
	for _, tt := range []struct {
		addr string
		port uint16
		ok   bool
	}{
		{"10.0.0.5", 5432, true}, {"10.0.0.5", 22, false},
		{"10.1.2.3", 443, true}, {"10.1.2.3", 80, false},
		{"fd00::1", 8080, true}, {"fd00::1", 80, false},
		{"fd01::9", 443, true}, {"::1", 22, true},
	} {
		if got := a.allowsAddr(netip.MustParseAddr(tt.addr), tt.port); got != tt.ok {
			t.Errorf("allowsAddr(%s, %d) = %v, want %v", tt.addr, tt.port, got, tt.ok)
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
		{"vault.corp:port", `allowlist entry "vault.corp:port": port "port": must be a number from 1 to 65535`},
		{"127.0.0.1:0", "must be a number from 1 to 65535"},
		{"127.0.0.1:65536", "must be a number from 1 to 65535"},
		{"vault.corp:", "the port after"},
		{"[::1", "[fd00::1]:8080"},
		{"[::1]80", "[fd00::1]:8080"},
		{"fd00::1::2", "with a port, write it as [fd00::1]:8080"},
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

// FuzzParseAllowlist: a list that parses prints in a form that parses back
// to the same list, and parsing never panics.
func FuzzParseAllowlist(f *testing.F) {
	for _, s := range []string{"vault.corp:8200", "[fd00::/8]:443", "10.0.0.0/8:80,*.x.local", "169.254.169.254!", "[::1]", "a:b:c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAllowlist(s)
		if err != nil {
			return
		}
		again, err := ParseAllowlist(a.String())
		if err != nil || again.String() != a.String() {
			t.Fatalf("ParseAllowlist(%q).String() = %q reads back as %q, %v", s, a.String(), again.String(), err)
		}
	})
}
