package failure

import (
	"errors"
	"strconv"
)

// Error is a classified failure raised by a node's executor. Executors that
// know what went wrong say so here, so the engine does not have to guess from
// the text; Classify finds it anywhere in an error chain with errors.As.
type Error struct {
	// Code is the failure class; when empty (or not a valid code), Classify
	// works it out from HTTPStatus, Err and the message.
	Code Code
	// HTTPStatus is the status of the service's answer, 0 when there was
	// no HTTP answer.
	HTTPStatus int
	// Message is the internal message. It may contain secrets: pass it
	// through Sanitize before storing or tracing it.
	Message string
	// Err is the cause, if any.
	Err error
	// Sent reports whether the request reached the service. It is false for
	// a refused connection, a DNS failure, an unreachable host or a failure
	// while connecting. Rule: "a failure is retried only when ... the request
	// never reached the service", so retry policies read it.
	Sent bool
	// Refused reports that the request was refused before it was sent (by
	// the SSRF guard or its allowlist): the answer would be the same on
	// every attempt, so no retry policy resends it.
	Refused bool
}

// IsRefused reports whether an *Error in err's chain has Refused set.
func IsRefused(err error) bool {
	var fe *Error
	for errors.As(err, &fe) {
		if fe.Refused {
			return true
		}
		if fe.Err == nil {
			return false
		}
		err = fe.Err
	}
	return false
}

// Error returns the message, followed by the cause when there is one. An
// Error with neither falls back to its HTTP status line or its code, so the
// text alone classifies the same way as the value.
func (e *Error) Error() string {
	switch {
	case e.Message != "" && e.Err != nil:
		return e.Message + ": " + e.Err.Error()
	case e.Message != "":
		return e.Message
	case e.Err != nil:
		return e.Err.Error()
	case e.HTTPStatus != 0:
		line := "HTTP " + strconv.Itoa(e.HTTPStatus)
		if text := statusText(e.HTTPStatus); text != "" {
			line += " " + text
		}
		return line
	case e.Code != "":
		return "failure " + string(e.Code)
	default:
		return "failure"
	}
}

// Unwrap returns the cause, so errors.Is and errors.As see through an Error.
func (e *Error) Unwrap() error { return e.Err }

// statusCode maps an HTTP status to its class. ok is false for statuses that
// are not failures by themselves (1xx to 3xx, and nonsense values), which
// leaves the decision to the cause or the message.
func statusCode(status int) (c Code, ok bool) {
	switch {
	// Rule: "HTTP 429 or a rate-limit message" is RATE_LIMITED.
	case status == 429:
		return RateLimited, true
	// Rule: "Any other HTTP 4xx answer" is REJECTED, including 408: the
	// service answered, so it is not our timeout.
	case status >= 400 && status <= 499:
		return Rejected, true
	// Rule: "An HTTP 5xx answer" is UPSTREAM_ERROR, including 504.
	case status >= 500 && status <= 599:
		return UpstreamError, true
	default:
		return "", false
	}
}
