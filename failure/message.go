package failure

import (
	"regexp"
	"strings"
)

// The phrase rules run on the message lower-cased with "_" turned into a
// space (see phraseText), so constants such as RESOURCE_EXHAUSTED or
// rate_limit_exceeded match, while letters and digits glued to a phrase
// ("keepalive", "timeoutMs") stop it: each phrase sits between \b edges and
// only counts as whole words.
var (
	// Rule: RATE_LIMITED is "HTTP 429 or a rate-limit message".
	rateLimitPhrase = regexp.MustCompile(`\b(?:rate[ -]?limit(?:ed|ing|s|error|exceeded)?|too many requests|throttl(?:ed|ing|ingexception)|resource exhausted|quota exceeded|exceeded (?:your )?(?:current )?quota)\b`)

	// Rule: UPSTREAM_ERROR includes "the model provider was overloaded",
	// and the 5xx reason phrases that some clients report without a number.
	upstreamPhrase = regexp.MustCompile(`\b(?:overloaded(?: ?error)?|internal server error|bad gateway|service unavailable)\b`)

	// Rule: INVALID_DATA is "A reply that was not valid JSON, an llm node's
	// structured reply that did not match its outputSchema, MCP schema
	// drift, an invalid expression".
	invalidDataPhrase = regexp.MustCompile(`\b(?:invalid character|not (?:a )?valid json|invalid json|malformed json|unexpected end of json|cannot unmarshal|looking for beginning of value|jsondecodeerror|schema[ -]?drift|(?:does|did) not match (?:the |its )?output ?schema|invalid expression)\b`)

	// Rule: TIMEOUT is "The request timed out". A prefix is allowed
	// (ReadTimeout, APITimeoutError) but a glued suffix is not, so a field
	// such as timeoutMs is not a timeout. The second group catches
	// "timeout_ms"-style config names, which are skipped.
	timeoutPhrase = regexp.MustCompile(`\b([a-z]*time-?out(?:s|error|exception)?|timed[ -]?out|etimedout|deadline exceeded|context deadline)(?:[ -](ms|millis|msec|secs?|seconds))?\b`)

	// Rule: UNREACHABLE is "Connection refused or reset, the host name did
	// not resolve, a network failure".
	unreachablePhrase = regexp.MustCompile(`\b(?:connection ?(?:refused|reset|aborted)(?:error)?|econn(?:refused|reset|aborted)|no such host|(?:network|host) (?:is )?unreachable|no route to host|e(?:host|net)unreach|enotfound|eai again|getaddrinfo|name resolution|could not resolve host|name or service not known|dial (?:tcp|udp|ip|unix)[46]?|failed to establish a new connection|broken pipe)\b`)

	// Go's HTTP client reports a connection the server closed before
	// answering as `Post "...": EOF`; "unexpected EOF" (a truncated body)
	// is not matched, because the request did reach the service.
	connectEOF = regexp.MustCompile(`(?:^|: )EOF$`)
)

// ClassifyMessage works the failure class out from the text of a message
// alone. Rule: "The code is worked out from the error message only, and
// anything that is not recognised is UNKNOWN".
//
// When a message carries several signals, the order is: rate limit (the
// one a retry policy most needs), an HTTP status in a status context, an
// overloaded provider, invalid data, timeout, unreachable. A status comes
// before timeout so that "504 Gateway Timeout" is UPSTREAM_ERROR as the
// table says; invalid data comes before timeout because parser messages
// are specific while "timeout" is also a common field name.
func ClassifyMessage(msg string) Code {
	lower := phraseText(msg)
	if rateLimitPhrase.MatchString(lower) {
		return RateLimited
	}
	if c, ok := statusInMessage(msg); ok {
		return c
	}
	switch {
	case upstreamPhrase.MatchString(lower):
		return UpstreamError
	case invalidDataPhrase.MatchString(lower):
		return InvalidData
	case hasTimeoutPhrase(lower):
		return Timeout
	case unreachablePhrase.MatchString(lower) || connectEOF.MatchString(msg):
		return Unreachable
	default:
		return Unknown
	}
}

// phraseText prepares msg for the phrase rules.
func phraseText(msg string) string {
	return strings.ToLower(strings.ReplaceAll(msg, "_", " "))
}

// hasTimeoutPhrase reports whether lower names a timeout other than as a
// configuration field such as "timeout_ms" or "timeout seconds".
func hasTimeoutPhrase(lower string) bool {
	for _, m := range timeoutPhrase.FindAllStringSubmatchIndex(lower, -1) {
		if m[4] < 0 {
			return true
		}
	}
	return false
}
