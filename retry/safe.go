package retry

import (
	"errors"
	"net"
	"slices"
	"strings"
	"syscall"

	"github.com/wetel/wetel/failure"
)

// Call describes the request being retried, as far as the safe-resend rule
// needs: its HTTP method (empty for an MCP tool call) and its headers after
// rendering. Header takes an http.Header as it is; it is a plain map so
// that this package does not pull in net/http.
type Call struct {
	Method string
	Header map[string][]string
}

// Idempotent reports whether the request itself shows that sending it twice
// is harmless, exactly as the seed lists it: a GET (compared
// case-insensitively), or an Idempotency-Key header (any spelling of its
// name) with a non-blank value. PUT and DELETE do not count: many services
// do not honour their idempotency, so the workflow author says so with
// idempotent: true. (Nodes cannot send HEAD or OPTIONS; the
// RETRY_NOT_IDEMPOTENT diagnostic reads the same rule.)
func (c Call) Idempotent() bool {
	if strings.EqualFold(strings.TrimSpace(c.Method), "GET") {
		return true
	}
	// The header map may be built from a config without canonical keys.
	for k, vs := range c.Header {
		if strings.EqualFold(k, "Idempotency-Key") && slices.ContainsFunc(vs, nonBlank) {
			return true
		}
	}
	return false
}

func nonBlank(s string) bool { return strings.TrimSpace(s) != "" }

// outcomeOf is what Do needs to know about one failed attempt.
type outcomeOf struct {
	class  failure.Code
	status int
	// sent is false only on evidence that the request never reached the
	// service.
	sent bool
}

func inspect(err error) outcomeOf {
	return outcomeOf{class: failure.Classify(err), status: httpStatus(err), sent: reachedService(err)}
}

// httpStatus returns the first HTTP status found on a *failure.Error in
// err's chain, or 0.
func httpStatus(err error) int {
	var fe *failure.Error
	for errors.As(err, &fe) {
		if fe.HTTPStatus != 0 {
			return fe.HTTPStatus
		}
		if fe.Err == nil {
			break
		}
		err = fe.Err
	}
	return 0
}

// reachedService reports whether the request may have reached the service.
// A *failure.Error in the chain decides: any one of them with Sent set or an
// HTTP status means it did. Without one, only the standard library's dial
// errors (a DNS failure, a failed dial, a refused connection, an
// unreachable host or network) show that it did not; anything else is
// assumed sent, since resending it might repeat its effect. A reset
// connection is assumed sent: it can happen after the request went out.
func reachedService(err error) bool {
	var fe *failure.Error
	found := false
	for e := err; errors.As(e, &fe); e = fe.Err {
		found = true
		if fe.Sent || fe.HTTPStatus != 0 {
			return true
		}
		if fe.Err == nil {
			break
		}
	}
	if found {
		return false
	}
	return !neverSent(err)
}

func neverSent(err error) bool {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	if errors.As(err, &dnsErr) || (errors.As(err, &opErr) && opErr.Op == "dial") {
		return true
	}
	for _, errno := range []syscall.Errno{syscall.ECONNREFUSED, syscall.EHOSTUNREACH, syscall.ENETUNREACH} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

// safeToResend applies the seed's rule: "A failure is retried only when its
// class is in on and the request never reached the service ..., or the
// service answered 429, or the request is idempotent". Any RATE_LIMITED
// failure counts as a 429: a rate-limit refusal says the request was not
// processed.
func (p Policy) safeToResend(call Call, o outcomeOf) bool {
	if !o.sent {
		return true
	}
	if p.UnsentOnly {
		return false
	}
	return o.class == failure.RateLimited || o.status == statusTooManyRequests ||
		p.Idempotent || call.Idempotent()
}

// neverRetried are the classes no policy retries (seed: "REJECTED (a 4xx),
// INVALID_DATA and UNKNOWN are never retried"), even if a hand-built
// Policy lists them.
func neverRetried(c failure.Code) bool {
	return c == failure.Rejected || c == failure.InvalidData || c == failure.Unknown
}
