package retry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"testing"

	"github.com/wetel/wetel/failure"
)

var (
	post = Call{Method: "POST"}
	get  = Call{Method: "GET"}
)

func TestSafeResendMatrix(t *testing.T) {
	t.Parallel()
	keyed := Call{Method: "POST", Header: http.Header{"Idempotency-Key": {"k-1"}}}
	emptyKey := Call{Method: "POST", Header: http.Header{"Idempotency-Key": {" "}}}
	idem := two(allOn...)
	idem.Idempotent = true
	tests := []struct {
		name    string
		p       Policy
		call    Call
		err     error
		resent  bool
		outcome string // when not resent
		class   string
		status  int
	}{
		{"POST timeout not resent", two(allOn...), post, errTimeoutPst, false, OutcomeNotIdempotent, "TIMEOUT", 0},
		{"POST timeout, bare deadline error, assumed sent", two(allOn...), post, context.DeadlineExceeded, false, OutcomeNotIdempotent, "TIMEOUT", 0},
		{"POST timeout resent when idempotent", idem, post, errTimeoutPst, true, "", "TIMEOUT", 0},
		{"POST timeout resent with Idempotency-Key", two(allOn...), keyed, errTimeoutPst, true, "", "TIMEOUT", 0},
		{"blank Idempotency-Key does not count", two(allOn...), emptyKey, errTimeoutPst, false, OutcomeNotIdempotent, "TIMEOUT", 0},
		{"POST 5xx not resent", two(allOn...), post, err502, false, OutcomeNotIdempotent, "UPSTREAM_ERROR", 502},
		{"POST 5xx resent when idempotent", idem, post, err502, true, "", "UPSTREAM_ERROR", 502},
		{"POST connection refused resent", two(failure.Unreachable), post, fmt.Errorf("calling: %w", errRefused), true, "", "UNREACHABLE", 0},
		{"POST bare ECONNREFUSED resent", two(failure.Unreachable), post, fmt.Errorf("connect: %w", syscall.ECONNREFUSED), true, "", "UNREACHABLE", 0},
		{"POST EHOSTUNREACH resent", two(failure.Unreachable), post, fmt.Errorf("connect: %w", syscall.EHOSTUNREACH), true, "", "UNREACHABLE", 0},
		{"POST ECONNRESET assumed sent", two(failure.Unreachable), post, fmt.Errorf("read: %w", syscall.ECONNRESET), false, OutcomeNotIdempotent, "UNREACHABLE", 0},
		{"an HTTP status means sent, whatever Sent says", two(allOn...), post, &failure.Error{HTTPStatus: 502}, false, OutcomeNotIdempotent, "UPSTREAM_ERROR", 502},
		{"POST DNS failure resent", two(failure.Unreachable), post, &net.DNSError{Err: "no such host", Name: "x.invalid"}, true, "", "UNREACHABLE", 0},
		{"POST failure while connecting resent", two(failure.Unreachable), post, errUnsent, true, "", "UNREACHABLE", 0},
		{"POST reset after sending not resent", two(failure.Unreachable), post, errReset, false, OutcomeNotIdempotent, "UNREACHABLE", 0},
		{"POST 429 resent", two(failure.RateLimited), post, err429, true, "", "RATE_LIMITED", 429},
		{"rate-limit message resent", two(failure.RateLimited), post, &failure.Error{Code: failure.RateLimited, Sent: true}, true, "", "RATE_LIMITED", 0},
		{"GET 503 resent", two(failure.UpstreamError), get, err503, true, "", "UPSTREAM_ERROR", 503},
		{"lowercase get resent", two(failure.UpstreamError), Call{Method: "get"}, err503, true, "", "UPSTREAM_ERROR", 503},
		{"get in any case resent", two(failure.Timeout), Call{Method: " get "}, errTimeoutPst, true, "", "TIMEOUT", 0},
		{"PUT timeout not resent", two(failure.Timeout), Call{Method: "PUT"}, errTimeoutPst, false, OutcomeNotIdempotent, "TIMEOUT", 0},
		{"MCP call (no method) timeout not resent", two(failure.Timeout), Call{}, errTimeoutPst, false, OutcomeNotIdempotent, "TIMEOUT", 0},
		{"GET 503 not in default on", two(DefaultOn()...), get, err503, false, OutcomeNotRetryable, "UPSTREAM_ERROR", 503},
		{"timeout not in on", two(failure.Unreachable), get, errTimeoutPst, false, OutcomeNotRetryable, "TIMEOUT", 0},
		{"4xx never retried", idem, get, err404, false, OutcomeNotRetryable, "REJECTED", 404},
		{"refused before sending never retried, though UNREACHABLE is in on", idem, get,
			fmt.Errorf("calling: %w", &failure.Error{Code: failure.Unreachable, Message: "outbound: refused http://10.0.0.1/", Refused: true}),
			false, OutcomeRefused, "UNREACHABLE", 0},
		{"4xx never retried even if listed", two(failure.Rejected), get, err404, false, OutcomeNotRetryable, "REJECTED", 404},
		{"INVALID_DATA never retried", two(failure.InvalidData), get, errBadJSON, false, OutcomeNotRetryable, "INVALID_DATA", 0},
		{"UNKNOWN never retried", two(failure.Unknown), get, errBoom, false, OutcomeNotRetryable, "UNKNOWN", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness()
			got := h.do(tt.p, tt.call, h.failing(tt.err))
			first := Attempt{N: 1, ErrorClass: tt.class, HTTPStatus: tt.status}
			if tt.resent {
				first.WaitMs = 100
				checkResult(t, got, OutcomeSucceededAfterRetry, []Attempt{first})
			} else {
				checkResult(t, got, tt.outcome, []Attempt{first})
				if !errors.Is(got.Err, tt.err) {
					t.Errorf("Err = %v, want the attempt's error %v", got.Err, tt.err)
				}
			}
			if want := map[bool]int{true: 2, false: 1}[tt.resent]; h.tries != want {
				t.Errorf("%d attempts made, want %d", h.tries, want)
			}
		})
	}
}

func TestToolBuiltinRetriesOnlyUnsent(t *testing.T) {
	t.Parallel()
	// UnsentOnly ignores the method: even a GET reset mid-request is not resent.
	h := newHarness()
	got := h.do(Builtin("tool"), get, h.always(errReset))
	checkResult(t, got, OutcomeNotIdempotent, []Attempt{{N: 1, ErrorClass: "UNREACHABLE"}})
}

func TestCallIdempotent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		call Call
		want bool
	}{
		{Call{Method: "GET"}, true},
		{Call{Method: " get "}, true},
		{Call{Method: "HEAD"}, false},
		{Call{Method: "OPTIONS"}, false},
		{Call{Method: "POST"}, false},
		{Call{Method: "DELETE"}, false},
		{Call{}, false},
		{Call{Method: "POST", Header: http.Header{"Idempotency-Key": {"abc"}}}, true},
		{Call{Method: "POST", Header: http.Header{"Idempotency-Key": {""}}}, false},
		// A header map built from a config, not canonicalised, still counts.
		{Call{Method: "POST", Header: http.Header{"idempotency-key": {"abc"}}}, true},
		{Call{Method: "POST", Header: http.Header{"Idempotency-Key": {"", "abc"}}}, true},
	}
	for _, tt := range tests {
		if got := tt.call.Idempotent(); got != tt.want {
			t.Errorf("%+v.Idempotent() = %v, want %v", tt.call, got, tt.want)
		}
	}
}
