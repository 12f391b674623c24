package outbound_test

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/outbound"
)

// A client refuses internal addresses, however they are spelled, unless
// the operator's allowlist opens them; the refusal is an UNREACHABLE failure, refused before sending.
func Example() {
	allow, err := outbound.ParseAllowlist("10.0.0.0/8, *.corp.internal")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Check("http://10.1.2.3/hooks/order"))

	err = c.Check("http://0xa9fea9fe/latest/meta-data/")
	fmt.Println(err)
	fmt.Println(failure.Classify(err))
	var refused *outbound.RefusedError
	if errors.As(err, &refused) {
		fmt.Println(refused.Addr)
	}
	// Output:
	// <nil>
	// outbound: refused http://0xa9fea9fe/latest/meta-data/: 0xa9fea9fe means 169.254.169.254, a cloud metadata address; add it to the allowlist (--allow-host / WETEL_OUTBOUND_ALLOW) to call an internal service
	// UNREACHABLE
	// 169.254.169.254
}

// The CLI joins its repeated --allow-host flags with the environment
// variable; a bad entry is named in the error.
func ExampleParseAllowlist() {
	flags := []string{"vault.corp", "127.0.0.1/32"}
	env := "10.0.0.0/8,*.svc.cluster.local" // os.Getenv(outbound.EnvAllow)
	allow, err := outbound.ParseAllowlist(strings.Join(append(flags, env), ","))
	fmt.Println(allow, err)

	_, err = outbound.ParseAllowlist("vault.corp:8200,169.254.169.254")
	fmt.Println(err)
	// Output:
	// vault.corp,127.0.0.1,10.0.0.0/8,*.svc.cluster.local <nil>
	// allowlist entry "169.254.169.254": 169.254.169.254 is a cloud metadata service, which hands out this host's credentials; write "169.254.169.254!" to allow it anyway
}

func ExampleBlocked() {
	for _, s := range []string{"8.8.8.8", "100.64.0.1", "::ffff:127.0.0.1", "64:ff9b::808:808"} {
		fmt.Println(s, outbound.Blocked(netip.MustParseAddr(s)))
	}
	// Output:
	// 8.8.8.8 false
	// 100.64.0.1 true
	// ::ffff:127.0.0.1 true
	// 64:ff9b::808:808 false
}
