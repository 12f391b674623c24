package retry

import (
	"context"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
)

func TestDoOutcomes(t *testing.T) {
	t.Parallel()
	three := Policy{MaxAttempts: 3, Backoff: BackoffFixed, Delay: 200 * ms, MaxDelay: 5000 * ms, On: allOn}
	tests := []struct {
		name     string
		p        Policy
		errs     []error // attempt n fails with errs[n-1], then succeeds
		outcome  string
		attempts []Attempt
	}{
		{"first attempt succeeds", three, nil, "", nil},
		{"succeeded after retry", three, []error{errRefused, err429},
			OutcomeSucceededAfterRetry, []Attempt{{1, "UNREACHABLE", 0, 200}, {2, "RATE_LIMITED", 429, 200}}},
		{"exhausted", three, []error{errRefused, errRefused, errRefused},
			OutcomeExhausted, []Attempt{{1, "UNREACHABLE", 0, 200}, {2, "UNREACHABLE", 0, 200}, {3, "UNREACHABLE", 0, 0}}},
		{"maxAttempts 1 is exhausted", Policy{MaxAttempts: 1, On: DefaultOn(), Explicit: true}, []error{errRefused},
			OutcomeExhausted, []Attempt{{1, "UNREACHABLE", 0, 0}}},
		{"zero policy makes one attempt", Policy{On: DefaultOn()}, []error{errRefused},
			OutcomeExhausted, []Attempt{{1, "UNREACHABLE", 0, 0}}},
		{"not retryable after a retry", three, []error{errRefused, err404},
			OutcomeNotRetryable, []Attempt{{1, "UNREACHABLE", 0, 200}, {2, "REJECTED", 404, 0}}},
		{"not idempotent after a retry", three, []error{err429, err502},
			OutcomeNotIdempotent, []Attempt{{1, "RATE_LIMITED", 429, 200}, {2, "UPSTREAM_ERROR", 502, 0}}},
		{"not retryable wins over exhausted", Policy{MaxAttempts: 1, On: allOn}, []error{errBadJSON},
			OutcomeNotRetryable, []Attempt{{1, "INVALID_DATA", 0, 0}}},
		{"not idempotent wins over exhausted", Policy{MaxAttempts: 1, On: allOn}, []error{err502},
			OutcomeNotIdempotent, []Attempt{{1, "UPSTREAM_ERROR", 502, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness()
			got := h.do(tt.p, post, h.failing(tt.errs...))
			checkResult(t, got, tt.outcome, tt.attempts)
			wantTries := len(tt.attempts)
			if got.Err == nil {
				wantTries++ // the one that succeeded
			}
			if h.tries != wantTries {
				t.Errorf("%d attempts, want %d", h.tries, wantTries)
			}
		})
	}
}

func TestDoSuccessClearsTheError(t *testing.T) {
	t.Parallel()
	h := newHarness()
	got := h.do(two(failure.Unreachable), post, h.failing(errRefused))
	if got.Err != nil || got.ErrorClass != "" || got.Failed() {
		t.Errorf("a call that succeeded reports Err %v, ErrorClass %q", got.Err, got.ErrorClass)
	}
}

func TestBuiltins(t *testing.T) {
	t.Parallel()
	after := &AfterError{Err: err429, After: 2 * time.Second}
	tests := []struct {
		name     string
		nodeType string
		call     Call
		err      error
		outcome  string
		attempts []Attempt
	}{
		{"tool retries a connection failure, 3 attempts", "tool", Call{}, errUnsent,
			OutcomeExhausted, []Attempt{{1, "UNREACHABLE", 0, 500}, {2, "UNREACHABLE", 0, 500}, {3, "UNREACHABLE", 0, 0}}},
		{"tool does not retry a timeout", "tool", Call{}, errTimeoutPst,
			OutcomeNotRetryable, []Attempt{{1, "TIMEOUT", 0, 0}}},
		{"tool does not retry a 429", "tool", Call{}, err429,
			OutcomeNotRetryable, []Attempt{{1, "RATE_LIMITED", 429, 0}}},
		{"tool does not resend after a reset", "tool", Call{}, errReset,
			OutcomeNotIdempotent, []Attempt{{1, "UNREACHABLE", 0, 0}}},
		{"action GET 503: 3 attempts, no wait", "action", get, err503,
			OutcomeExhausted, []Attempt{{1, "UPSTREAM_ERROR", 503, 0}, {2, "UPSTREAM_ERROR", 503, 0}, {3, "UPSTREAM_ERROR", 503, 0}}},
		{"action GET timeout retried", "action", get, errTimeoutPst,
			OutcomeExhausted, []Attempt{{1, "TIMEOUT", 0, 0}, {2, "TIMEOUT", 0, 0}, {3, "TIMEOUT", 0, 0}}},
		{"action POST 503 not resent", "action", post, err503,
			OutcomeNotIdempotent, []Attempt{{1, "UPSTREAM_ERROR", 503, 0}}},
		{"action POST 429 resent at once", "action", post, err429,
			OutcomeExhausted, []Attempt{{1, "RATE_LIMITED", 429, 0}, {2, "RATE_LIMITED", 429, 0}, {3, "RATE_LIMITED", 429, 0}}},
		{"action never waits for Retry-After", "action", post, after,
			OutcomeRetryAfterTooLong, []Attempt{{1, "RATE_LIMITED", 429, 0}}},
		{"action 404 not retried", "action", get, err404,
			OutcomeNotRetryable, []Attempt{{1, "REJECTED", 404, 0}}},
		{"webhook never retries", "webhook", get, errRefused,
			OutcomeNotRetryable, []Attempt{{1, "UNREACHABLE", 0, 0}}},
		{"unknown type never retries", "llm", get, errRefused,
			OutcomeNotRetryable, []Attempt{{1, "UNREACHABLE", 0, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness()
			p := Builtin(tt.nodeType)
			if p.Explicit {
				t.Errorf("Builtin(%q).Explicit = true", tt.nodeType)
			}
			got := h.do(p, tt.call, h.always(tt.err))
			checkResult(t, got, tt.outcome, tt.attempts)
			if len(h.waits) != 0 && tt.nodeType != "tool" {
				t.Errorf("%s waited %v", tt.nodeType, h.waits)
			}
		})
	}
}

func TestToolBuiltinJitter(t *testing.T) {
	t.Parallel()
	for r, want := range map[float64]int64{0: 400, 1: 600} {
		h := newHarness()
		h.env.Rand = func() float64 { return r }
		got := h.do(Builtin("tool"), Call{}, h.failing(errUnsent))
		checkResult(t, got, OutcomeSucceededAfterRetry, []Attempt{{1, "UNREACHABLE", 0, want}})
	}
}

func TestAttemptNumbersAndContext(t *testing.T) {
	t.Parallel()
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "v")
	h := newHarness()
	var seen []int
	Do(ctx, two(failure.Unreachable), post, h.env, func(actx context.Context, n int) error {
		seen = append(seen, n)
		if actx.Value(key{}) != "v" {
			t.Errorf("attempt %d's context does not derive from the caller's", n)
		}
		return errRefused
	})
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 2 {
		t.Errorf("attempts numbered %v, want [1 2]", seen)
	}
}
