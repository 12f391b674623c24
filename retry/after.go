package retry

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter bounds a parsed Retry-After, so absurd values stay far from
// overflowing a time.Duration; any such value is far too long anyway.
const maxRetryAfter = 365 * 24 * time.Hour

// AfterError is the failure of a call whose answer carried a Retry-After
// header. The HTTP callers (action and webhook nodes) wrap a 429 or 503
// answer in it, usually through WithRetryAfter, so that Do honours the
// header; a caller that knows a wait from elsewhere (an MCP rate-limit
// reply) may wrap its error too. Any error in the chain with a
// RetryAfter() time.Duration method works the same way.
type AfterError struct {
	// Err is the failure itself, typically a *failure.Error with the
	// answer's HTTPStatus.
	Err error
	// After is how long the service asked to wait.
	After time.Duration
}

// Error returns the message of the wrapped failure.
func (e *AfterError) Error() string {
	if e.Err == nil {
		return "retry after " + e.After.String()
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped failure, so failure.Classify sees through it.
func (e *AfterError) Unwrap() error { return e.Err }

// RetryAfter returns how long the service asked to wait.
func (e *AfterError) RetryAfter() time.Duration { return e.After }

// RetryAfter returns the wait asked for by the first error in err's chain
// that has a RetryAfter() time.Duration method; a negative wait reads as 0.
func RetryAfter(err error) (time.Duration, bool) {
	var ra interface{ RetryAfter() time.Duration }
	if !errors.As(err, &ra) {
		return 0, false
	}
	return max(ra.RetryAfter(), 0), true
}

// Header is what WithRetryAfter reads of an answer's headers; an
// http.Header is one. (An interface, so that this package, which the node
// contract and graph checkers link, does not pull in net/http.)
type Header interface {
	Get(name string) string
}

// WithRetryAfter wraps err in an *AfterError when status is 429 or 503 and
// header has a Retry-After that ParseRetryAfter reads; otherwise it returns
// err unchanged. now is the caller's clock reading, for the HTTP-date form.
func WithRetryAfter(err error, status int, header Header, now time.Time) error {
	// Seed: "A Retry-After on a 429 or 503 is honoured".
	if err == nil || header == nil || (status != statusTooManyRequests && status != statusServiceUnavailable) {
		return err
	}
	d, ok := ParseRetryAfter(header.Get("Retry-After"), now)
	if !ok {
		return err
	}
	return &AfterError{Err: err, After: d}
}

// ParseRetryAfter reads a Retry-After header value in either of its forms
// (RFC 9110 §10.2.3): delta-seconds ("120") or an HTTP-date ("Wed, 21 Oct
// 2026 07:28:00 GMT", also the obsolete RFC 850 and asctime forms). A date
// in the past means no wait. The result is never negative and at most a
// year; ok is false for anything else, such as "", "-1" or "1.5".
func ParseRetryAfter(h string, now time.Time) (d time.Duration, ok bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if allDigits(h) {
		secs, err := strconv.ParseInt(h, 10, 64)
		if err != nil || secs > int64(maxRetryAfter/time.Second) {
			// Only a value too large for int64 fails here.
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := parseHTTPDate(h)
	if err != nil {
		return 0, false
	}
	return min(max(t.Sub(now), 0), maxRetryAfter), true
}

// The statuses whose Retry-After is honoured.
const (
	statusTooManyRequests    = 429
	statusServiceUnavailable = 503
)

// httpDateLayouts are the forms of an HTTP-date (RFC 9110 §5.6.7), in the
// order net/http.ParseTime tries them: IMF-fixdate, then the obsolete RFC
// 850 and asctime forms.
var httpDateLayouts = []string{"Mon, 02 Jan 2006 15:04:05 GMT", time.RFC850, time.ANSIC}

// parseHTTPDate is net/http.ParseTime (a test keeps them equal).
func parseHTTPDate(s string) (t time.Time, err error) {
	for _, layout := range httpDateLayouts {
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return t, err
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
