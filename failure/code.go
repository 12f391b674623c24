// Package failure classifies the errors a node raises into stable codes and
// prepares their messages for storage.
//
// When a node fails, the engine stores three context variables: the
// redacted, bounded message (_lastNodeError, see Sanitize), the code
// (_lastNodeErrorCode, see Classify) and a fixed neutral sentence
// (_lastNodeErrorPublic, see Code.PublicSentence). The code drives failure
// branches and retry policies, so its spelling never changes; the sentence
// is a constant per code, so it is safe to show to an end user.
package failure

import (
	"fmt"
	"strings"
)

// Code is a stable failure class: the value of _lastNodeErrorCode and of a
// retry policy's "on" list.
type Code string

// The seven failure classes, in the order of the specification's table.
const (
	// Timeout means the request timed out.
	Timeout Code = "TIMEOUT"
	// Unreachable means the connection was refused or reset, the host name
	// did not resolve, or the network failed.
	Unreachable Code = "UNREACHABLE"
	// RateLimited means an HTTP 429 answer or a rate-limit message.
	RateLimited Code = "RATE_LIMITED"
	// Rejected means any HTTP 4xx answer other than 429.
	Rejected Code = "REJECTED"
	// UpstreamError means an HTTP 5xx answer or an overloaded model provider.
	UpstreamError Code = "UPSTREAM_ERROR"
	// InvalidData means a reply that was not valid JSON, a structured reply
	// that did not match its outputSchema, MCP schema drift or an invalid
	// expression.
	InvalidData Code = "INVALID_DATA"
	// Unknown is everything that is not recognised.
	Unknown Code = "UNKNOWN"
)

// codes holds every code in table order; Codes hands out copies.
var codes = [...]Code{Timeout, Unreachable, RateLimited, Rejected, UpstreamError, InvalidData, Unknown}

// Codes returns all seven codes in the order of the specification's table.
func Codes() []Code {
	out := make([]Code, len(codes))
	copy(out, codes[:])
	return out
}

// Valid reports whether c is one of the seven codes, spelled exactly.
func (c Code) Valid() bool {
	for _, k := range codes {
		if c == k {
			return true
		}
	}
	return false
}

// ParseCode returns the code spelled exactly s, as a config's mockError.code
// must be. Matching is exact (no case folding or trimming) so that a config
// and a condition such as _lastNodeErrorCode == "TIMEOUT" always agree on the
// spelling.
func ParseCode(s string) (Code, error) {
	if c := Code(s); c.Valid() {
		return c, nil
	}
	names := make([]string, len(codes))
	for i, k := range codes {
		names[i] = string(k)
	}
	return "", fmt.Errorf("unknown failure code %q: valid codes are %s", s, strings.Join(names, ", "))
}

// PublicSentence returns the fixed neutral sentence stored in
// _lastNodeErrorPublic for c; a code that is not valid gets UNKNOWN's.
// Rule: "the sentence never contains any part of the original message", so
// each sentence is a constant.
func (c Code) PublicSentence() string {
	switch c {
	case Timeout:
		return "The service took too long to respond."
	case Unreachable:
		return "The service could not be reached."
	case RateLimited:
		return "The service is busy right now."
	case Rejected:
		return "The service did not accept the request."
	case UpstreamError:
		return "The service had a problem handling the request."
	case InvalidData:
		return "The information could not be processed."
	default:
		return "Something went wrong with that step."
	}
}
