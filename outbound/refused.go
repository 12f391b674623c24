package outbound

import (
	"net/netip"

	"github.com/wetel/wetel/failure"
)

// allowHint tells the operator how to open an internal service on purpose.
const allowHint = "; add it to the allowlist (--allow-host / " + EnvAllow + ") to call an internal service"

// RefusedError says why the guard refused an outbound call. It always
// arrives wrapped in a *failure.Error with Code failure.Unreachable, Sent
// false and Refused true, whose message names the URL; find it with
// errors.As.
type RefusedError struct {
	// URL is the refused URL with any password redacted; empty when the
	// refusal happened while connecting and the caller went through HTTP()
	// rather than Do, which fills it in.
	URL string
	// Host is the host as written in the URL (or as the HTTP transport
	// dialled it), without its port.
	Host string
	// Addr is the address judged; the zero Addr when the refusal is about
	// the scheme, the URL's form or a host name alone.
	Addr netip.Addr
	// Reason says why, in plain words ("127.0.0.1 is a loopback address").
	Reason string
	// allowable reports that the allowlist could open what was refused, so
	// the message says how.
	allowable bool
}

// Error returns the reason, followed by how to allowlist the target when
// the allowlist could open it.
func (e *RefusedError) Error() string {
	if e.allowable {
		return e.Reason + allowHint
	}
	return e.Reason
}

// target is what the refusal message names: the URL when known.
func (e *RefusedError) target() string {
	if e.URL != "" {
		return e.URL
	}
	return e.Host
}

// reject classifies a refusal. The service was never reached, so it is
// UNREACHABLE ("The service could not be reached"): REJECTED is the
// seed's class for a 4xx answer, and no service answered. Sent is false
// and Refused true, so no retry policy resends what would be refused
// again.
func reject(e *RefusedError) *failure.Error {
	return &failure.Error{
		Code:    failure.Unreachable,
		Message: "outbound: refused " + e.target(),
		Err:     e,
		Sent:    false,
		Refused: true,
	}
}

// refuseAddr builds the refusal of an address. how says how the host led to
// it: "" for a literal in canonical form, "means" for another spelling,
// "resolves to" for a looked-up name.
func refuseAddr(written, how string, addr netip.Addr, kind string) *RefusedError {
	reason := addr.String() + " is " + kind
	if how != "" {
		reason = written + " " + how + " " + addr.String() + ", " + kind
	}
	return &RefusedError{Host: written, Addr: addr, Reason: reason, allowable: true}
}
