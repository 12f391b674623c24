package failure

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// A three-digit number in an error message is read as an HTTP status only
// in a status context: ids ("POD-404"), counts ("processed 503 items"),
// ports and longer numbers ("order 4291") are everywhere in messages and
// must not turn into REJECTED or UPSTREAM_ERROR.
var (
	// strongStatus: a keyword that only ever introduces a status, such as
	// "HTTP 404", "HTTP/1.1 503", "status 502", "status code: 400",
	// "response code=500" or a JSON field such as "statusCode": 429.
	strongStatus = regexp.MustCompile(`(?i)(?:\bhttp(?:/\d(?:\.\d)?)?(?:[ _-]?(?:status|error|code))?|\bstatus(?:[ _-]?code)?|\bresponse[ _-]?(?:status|code)|"(?:status|statuscode|status_code|http_?status|code)")\s*[:=]?\s*"?([1-5]\d\d)\b`)

	// weakStatus: a verb or noun that often, but not only, introduces a
	// status ("returned 503", "got 404.", "error 500: ..."). The number
	// must end the clause, so "returned 500 rows" is not a status.
	weakStatus = regexp.MustCompile(`(?i)\b(?:returned|responded(?: with)?|answered(?: with)?|received|got|error|code|failed with)\s+([1-5]\d\d)(?:\s*$|\s*[:;,)\]!]|\.(?:\s|$)|\s+(?:error|status|response)\b)`)

	// reasonStatus: a number followed by its own reason phrase, as in a
	// status line ("404 Not Found", "503 SERVICE UNAVAILABLE"). The number
	// must start a word, so "POD-404 Not Found" does not count.
	reasonStatus = regexp.MustCompile(`(?:^|[\s(\["'=,;>])([1-5]\d\d)[ \t]+(` + reasonPhrases() + `)\b`)
)

// reasonPhrases returns the standard reason phrases of 4xx and 5xx statuses
// as a regexp alternation, in the spellings status lines use: canonical
// title case and upper case. Plain lower case is left out because
// "user 404 not found" is prose about a user, not a status line.
func reasonPhrases() string {
	var alts []string
	for status := 400; status <= 599; status++ {
		if text := http.StatusText(status); text != "" {
			alts = append(alts, regexp.QuoteMeta(text), regexp.QuoteMeta(strings.ToUpper(text)))
		}
	}
	return strings.Join(alts, "|")
}

// statusInMessage returns the class of the HTTP status named in msg. A 429
// anywhere wins, because a rate limit is what a retry policy most needs to
// see; otherwise the leftmost 4xx or 5xx status decides. Statuses below 400
// are skipped: "HTTP 200" followed by a parse error is not an HTTP failure.
func statusInMessage(msg string) (Code, bool) {
	best, bestAt := Code(""), -1
	for _, re := range []*regexp.Regexp{strongStatus, weakStatus, reasonStatus} {
		for _, m := range re.FindAllStringSubmatchIndex(msg, -1) {
			status, err := strconv.Atoi(msg[m[2]:m[3]])
			if err != nil {
				continue
			}
			if re == reasonStatus && !strings.EqualFold(http.StatusText(status), msg[m[4]:m[5]]) {
				// "404 Conflict" is not a status line.
				continue
			}
			c, ok := statusCode(status)
			if !ok {
				continue
			}
			if c == RateLimited {
				return RateLimited, true
			}
			if bestAt < 0 || m[2] < bestAt {
				best, bestAt = c, m[2]
			}
		}
	}
	return best, bestAt >= 0
}
