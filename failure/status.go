package failure

import (
	"regexp"
	"strings"
)

// A three-digit number in an error message is read as an HTTP status only
// in a status context: ids ("POD-404"), counts ("processed 503 items"),
// ports and longer numbers ("order 4291") are everywhere in messages and
// must not turn into REJECTED or UPSTREAM_ERROR. The scan finds standalone
// three-digit numbers first and only then looks at the words around them,
// so the patterns below run on a few dozen bytes at a time.
var (
	// strongBefore: a keyword that only ever introduces a status, such as
	// "HTTP 404", "HTTP/1.1 503", "status 502", "status code: 400",
	// "response code=500" or a JSON field such as "statusCode": 429.
	strongBefore = regexp.MustCompile(`(?i)(?:\bhttp(?:/\d(?:\.\d)?)?(?:[ _-]?(?:status|error|code))?|\bstatus(?:[ _-]?code)?|\bresponse[ _-]?(?:status|code)|"(?:status|statuscode|status_code|http_?status|code)")\s*[:=]?\s*"?$`)

	// weakBefore: a verb or noun that often, but not only, introduces a
	// status ("returned 503", "got 404.", "error 500: ..."); weakAfter must
	// then hold too, so "returned 500 rows" is not a status.
	weakBefore = regexp.MustCompile(`(?i)\b(?:returned|responded(?: with)?|answered(?: with)?|received|got|error|code|failed with)\s+$`)
	// weakAfter: the number ends its clause.
	weakAfter = regexp.MustCompile(`^(?:\s*$|\s*[:;,)\]!]|\.(?:\s|$)|\s+(?i:error|status|response)\b)`)
)

// statusContextBytes is how far before a number the status keywords are
// looked for.
const statusContextBytes = 48

// statusInMessage returns the class of the HTTP status named in msg. A 429
// anywhere wins, because a rate limit is what a retry policy most needs to
// see; otherwise the leftmost 4xx or 5xx status decides. Statuses below 400
// are skipped: "HTTP 200" followed by a parse error is not an HTTP failure.
func statusInMessage(msg string) (Code, bool) {
	var first Code
	for i := 0; i < len(msg); {
		if !isDigit(msg[i]) {
			i++
			continue
		}
		j := i
		for j < len(msg) && isDigit(msg[j]) {
			j++
		}
		if j-i == 3 && (i == 0 || !isWordByte(msg[i-1])) && (j == len(msg) || !isWordByte(msg[j])) {
			status := int(msg[i]-'0')*100 + int(msg[i+1]-'0')*10 + int(msg[i+2]-'0')
			if c, ok := statusCode(status); ok && inStatusContext(msg, i, j, status) {
				if c == RateLimited {
					return RateLimited, true
				}
				if first == "" {
					first = c
				}
			}
		}
		i = j
	}
	return first, first != ""
}

// inStatusContext reports whether the number msg[i:j] is introduced as a
// status, or followed by its own reason phrase as in a status line.
func inStatusContext(msg string, i, j, status int) bool {
	before := msg[max(0, i-statusContextBytes):i]
	if strongBefore.MatchString(before) {
		return true
	}
	if weakBefore.MatchString(before) && weakAfter.MatchString(msg[j:]) {
		return true
	}
	return (i == 0 || strings.IndexByte(" \t\r\n([\"'=,;>", msg[i-1]) >= 0) && reasonFollows(msg[j:], status)
}

// reasonFollows reports whether rest starts with status's own reason
// phrase ("404 Not Found", "503 SERVICE UNAVAILABLE"). Plain lower case is
// left out because "user 404 not found" is prose about a user, not a
// status line, and so is a mismatched phrase ("404 Conflict").
func reasonFollows(rest string, status int) bool {
	trimmed := strings.TrimLeft(rest, " \t")
	if len(trimmed) == len(rest) {
		return false
	}
	text := statusText(status)
	for _, phrase := range []string{text, strings.ToUpper(text)} {
		if text != "" && strings.HasPrefix(trimmed, phrase) &&
			(len(trimmed) == len(phrase) || !isWordByte(trimmed[len(phrase)])) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
