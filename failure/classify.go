package failure

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"syscall"
)

// Classify returns the failure class of err, trying the most trustworthy
// evidence first:
//
//  1. an *Error in the chain with a valid Code;
//  2. an *Error with an HTTPStatus of 4xx or 5xx (429 is RATE_LIMITED, other
//     4xx REJECTED, 5xx UPSTREAM_ERROR);
//  3. context.DeadlineExceeded, os.ErrDeadlineExceeded or a net.Error that
//     reports a timeout: TIMEOUT;
//  4. a *net.OpError while dialing, a *net.DNSError, or ECONNREFUSED,
//     ECONNRESET, EHOSTUNREACH, ENETUNREACH: UNREACHABLE;
//  5. a *json.SyntaxError or *json.UnmarshalTypeError: INVALID_DATA;
//  6. otherwise ClassifyMessage(err.Error()).
//
// Classify(nil) is UNKNOWN: there is nothing to recognise.
func Classify(err error) Code {
	if err == nil {
		return Unknown
	}
	if c, ok := declaredCode(err); ok {
		return c
	}
	if c, ok := typedCode(err); ok {
		return c
	}
	return ClassifyMessage(err.Error())
}

// declaredCode walks the *Error values in err's chain, outermost first, and
// returns the first code or classifiable HTTP status it finds. An executor
// that wraps another executor's *Error without a code of its own keeps the
// inner one's.
func declaredCode(err error) (Code, bool) {
	var fe *Error
	for errors.As(err, &fe) {
		if fe.Code.Valid() {
			return fe.Code, true
		}
		if c, ok := statusCode(fe.HTTPStatus); ok {
			return c, true
		}
		if fe.Err == nil {
			break
		}
		err = fe.Err
	}
	return "", false
}

// typedCode recognises the standard library's own error types, which say
// more reliably than their text what happened.
func typedCode(err error) (Code, bool) {
	// Rule: TIMEOUT is "The request timed out."
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return Timeout, true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return Timeout, true
	}
	// Rule: UNREACHABLE is "Connection refused or reset, the host name did
	// not resolve, a network failure."
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return Unreachable, true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return Unreachable, true
	}
	for _, errno := range []syscall.Errno{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EHOSTUNREACH, syscall.ENETUNREACH} {
		if errors.Is(err, errno) {
			return Unreachable, true
		}
	}
	// Rule: INVALID_DATA includes "A reply that was not valid JSON".
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) {
		return InvalidData, true
	}
	return "", false
}
