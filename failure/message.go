package failure

import "strings"

// The phrase lists run on the message folded by foldPhraseText: lower
// case, "_" read as a space, so constants such as RESOURCE_EXHAUSTED or
// rate_limit_exceeded match, while letters and digits glued to a phrase
// ("keepalive", "timeoutMs") stop it.
var (
	// Rule: RATE_LIMITED is "HTTP 429 or a rate-limit message".
	rateLimitPhrases = join(
		words("rate limit", "rate-limit", "ratelimit").withSuffixes("exceeded", "error", "ing", "ed", "s").asHeaderNames(),
		words("throttling").withSuffixes("exception"),
		words("too many requests", "throttled", "resource exhausted", "quota exceeded",
			"exceeded your current quota", "exceeded your quota"))

	// Rule: UPSTREAM_ERROR includes "the model provider was overloaded",
	// and the 5xx reason phrases that some clients report without a number.
	upstreamPhrases = join(words("overloaded").withSuffixes("error"),
		words("internal server error", "bad gateway", "service unavailable"))

	// Rule: INVALID_DATA is "A reply that was not valid JSON, an llm node's
	// structured reply that did not match its outputSchema, MCP schema
	// drift, an invalid expression".
	invalidDataPhrases = join(words("invalid character", "not valid json", "not a valid json",
		"invalid json", "malformed json", "unexpected end of json", "cannot unmarshal",
		"looking for beginning of value", "jsondecodeerror", "schema drift", "schema-drift",
		"schemadrift", "invalid expression"), outputSchemaMismatch())

	// Rule: TIMEOUT is "The request timed out". A prefix may be glued on
	// (ReadTimeout, APITimeoutError) but only a known suffix may follow,
	// so a field such as timeoutMs is not a timeout.
	timeoutPhrases = join(phrases{
		{text: "timeout", gluedPrefix: true, suffixes: []string{"exception", "error", "s"}},
		{text: "timedout", gluedPrefix: true},
	}, words("timed out", "timed-out", "time-out", "deadline exceeded", "deadlineexceeded", "context deadline"))

	// timeoutFieldUnits follow "timeout" when it names a setting
	// ("timeout_ms must be positive") rather than an event.
	timeoutFieldUnits = words(" ms", "-ms", " millis", " msec", " sec", " secs", " seconds")

	// Rule: UNREACHABLE is "Connection refused or reset, the host name did
	// not resolve, a network failure".
	unreachablePhrases = join(
		words("connection refused", "connectionrefused", "connection reset", "connectionreset",
			"connection aborted", "connectionaborted").withSuffixes("error"),
		words("dial tcp", "dial udp", "dial ip").withSuffixes("4", "6"),
		words("dial unix", "econnrefused", "econnreset", "econnaborted", "no such host",
			"network is unreachable", "network unreachable", "host is unreachable", "host unreachable",
			"no route to host", "ehostunreach", "enetunreach", "enotfound", "eai again", "getaddrinfo",
			"name resolution", "could not resolve host", "name or service not known",
			"failed to establish a new connection", "broken pipe"))
)

// outputSchemaMismatch spells "does not match outputSchema" in the ways a
// validator or the llm node may put it.
func outputSchemaMismatch() phrases {
	var out phrases
	for _, verb := range []string{"does", "did"} {
		for _, det := range []string{"", "the ", "its "} {
			for _, noun := range []string{"outputschema", "output schema"} {
				out = append(out, phrase{text: verb + " not match " + det + noun})
			}
		}
	}
	return out
}

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
	text := foldPhraseText(msg)
	if rateLimitPhrases.in(text) {
		return RateLimited
	}
	if c, ok := statusInMessage(msg); ok {
		return c
	}
	switch {
	case upstreamPhrases.in(text):
		return UpstreamError
	case invalidDataPhrases.in(text):
		return InvalidData
	case hasTimeoutPhrase(text):
		return Timeout
	case unreachablePhrases.in(text) || closedBeforeAnswer(msg):
		return Unreachable
	default:
		return Unknown
	}
}

// hasTimeoutPhrase reports whether text names a timeout other than as a
// setting such as "timeout_ms" or "timeout seconds".
func hasTimeoutPhrase(text string) bool {
	for _, p := range timeoutPhrases {
		for start, end := p.index(text, 0); start >= 0; start, end = p.index(text, start+1) {
			if !timeoutFieldUnits.prefixOf(text[end:]) {
				return true
			}
		}
	}
	return false
}

// prefixOf reports whether text starts with one of ps as whole words.
func (ps phrases) prefixOf(text string) bool {
	for _, p := range ps {
		if strings.HasPrefix(text, p.text) && p.rightEdge(text, len(p.text)) >= 0 {
			return true
		}
	}
	return false
}

// closedBeforeAnswer recognises how Go's HTTP client reports a connection
// the server closed before answering: `Post "...": EOF`, or a bare "EOF".
// "unexpected EOF" (a truncated body) is not one: the request did reach
// the service.
func closedBeforeAnswer(msg string) bool {
	return msg == "EOF" || strings.HasSuffix(msg, ": EOF")
}
