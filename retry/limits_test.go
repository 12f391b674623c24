package retry

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
)

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	p := Policy{MaxAttempts: 3, Backoff: BackoffFixed, Delay: 100 * ms, MaxDelay: 4 * time.Second, Jitter: true, On: allOn}
	after := func(err error, d time.Duration) error {
		return fmt.Errorf("calling: %w", &AfterError{Err: err, After: d})
	}
	tests := []struct {
		name     string
		errs     []error
		outcome  string
		attempts []Attempt
	}{
		{"429 honoured, no jitter", []error{after(err429, 3*time.Second)},
			OutcomeSucceededAfterRetry, []Attempt{{1, "RATE_LIMITED", 429, 3000}}},
		{"503 honoured", []error{after(err503, 2*time.Second)},
			OutcomeSucceededAfterRetry, []Attempt{{1, "UPSTREAM_ERROR", 503, 2000}}},
		{"equal to maxDelay honoured", []error{after(err429, 4*time.Second)},
			OutcomeSucceededAfterRetry, []Attempt{{1, "RATE_LIMITED", 429, 4000}}},
		{"zero honoured", []error{after(err429, 0)},
			OutcomeSucceededAfterRetry, []Attempt{{1, "RATE_LIMITED", 429, 0}}},
		{"longer than maxDelay gives up", []error{after(err429, 4*time.Second+ms)},
			OutcomeRetryAfterTooLong, []Attempt{{1, "RATE_LIMITED", 429, 0}}},
		{"503 too long gives up", []error{after(err503, time.Minute)},
			OutcomeRetryAfterTooLong, []Attempt{{1, "UPSTREAM_ERROR", 503, 0}}},
		{"ignored on a 502", []error{after(err502, time.Minute)},
			OutcomeSucceededAfterRetry, []Attempt{{1, "UPSTREAM_ERROR", 502, 120}}}, // backoff, +20 % jitter
		{"honoured without a status", []error{after(&failure.Error{Code: failure.RateLimited, Sent: true}, time.Second)},
			OutcomeSucceededAfterRetry, []Attempt{{1, "RATE_LIMITED", 0, 1000}}},
		{"not retryable before too long", []error{after(err404, time.Minute)},
			OutcomeNotRetryable, []Attempt{{1, "REJECTED", 404, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness()
			h.env.Rand = func() float64 { return 1 }
			checkResult(t, h.do(p, get, h.failing(tt.errs...)), tt.outcome, tt.attempts)
		})
	}
}

func TestNoWaitRefusesAnyRetryAfter(t *testing.T) {
	t.Parallel()
	p := Policy{MaxAttempts: 3, NoWait: true, Delay: time.Second, MaxDelay: 5 * time.Second, On: DefaultOn()}
	h := newHarness()
	got := h.do(p, post, h.always(&AfterError{Err: err429, After: time.Second}))
	checkResult(t, got, OutcomeRetryAfterTooLong, []Attempt{{1, "RATE_LIMITED", 429, 0}})
	h = newHarness()
	got = h.do(p, post, h.failing(err429, &AfterError{Err: err429}))
	checkResult(t, got, OutcomeSucceededAfterRetry, []Attempt{{1, "RATE_LIMITED", 429, 0}, {2, "RATE_LIMITED", 429, 0}})
	if len(h.waits) != 0 {
		t.Errorf("NoWait waited %v", h.waits)
	}
}

func TestWaitCap(t *testing.T) {
	t.Parallel()
	// Exponential 2 s, 4 s, then 5 s (capped): 11 s passes the 10 s cap.
	p := Policy{MaxAttempts: 4, Backoff: BackoffExponential, Delay: 2 * time.Second, MaxDelay: 5 * time.Second, On: DefaultOn()}
	h := newHarness()
	got := h.do(p, post, h.always(errRefused))
	checkResult(t, got, OutcomeWaitCap, []Attempt{{1, "UNREACHABLE", 0, 2000}, {2, "UNREACHABLE", 0, 4000}, {3, "UNREACHABLE", 0, 0}})
	if want := []time.Duration{2 * time.Second, 4 * time.Second}; !slices.Equal(h.waits, want) {
		t.Errorf("waited %v, want %v", h.waits, want)
	}

	// A wait that exactly fills the cap is allowed; Env.WaitCap overrides 10 s.
	h = newHarness()
	h.env.WaitCap = 6 * time.Second
	got = h.do(p, post, h.always(errRefused))
	checkResult(t, got, OutcomeWaitCap, []Attempt{{1, "UNREACHABLE", 0, 2000}, {2, "UNREACHABLE", 0, 4000}, {3, "UNREACHABLE", 0, 0}})
	h = newHarness()
	h.env.WaitCap = 5 * time.Second
	got = h.do(p, post, h.always(errRefused))
	checkResult(t, got, OutcomeWaitCap, []Attempt{{1, "UNREACHABLE", 0, 2000}, {2, "UNREACHABLE", 0, 0}})

	// Retry-After counts toward the cap too.
	ra := Policy{MaxAttempts: 4, Backoff: BackoffFixed, Delay: 100 * ms, MaxDelay: 5 * time.Second, On: DefaultOn()}
	h = newHarness()
	got = h.do(ra, post, h.always(&AfterError{Err: err429, After: 4 * time.Second}))
	checkResult(t, got, OutcomeWaitCap, []Attempt{{1, "RATE_LIMITED", 429, 4000}, {2, "RATE_LIMITED", 429, 4000}, {3, "RATE_LIMITED", 429, 0}})
}

func TestDeadlines(t *testing.T) {
	t.Parallel()
	fixed := func(deadline time.Duration) Policy {
		return Policy{MaxAttempts: 4, Backoff: BackoffFixed, Delay: 500 * ms, MaxDelay: 5 * time.Second, On: DefaultOn(), Deadline: deadline}
	}
	tests := []struct {
		name      string
		p         Policy
		run       time.Duration // run deadline after t0; 0 = none
		spend     time.Duration // time each attempt takes on the fake clock
		attempts  []Attempt
		wantTries int
	}{
		{"policy deadline counts attempt time", fixed(1500 * ms), 0, 300 * ms,
			[]Attempt{{1, "UNREACHABLE", 0, 500}, {2, "UNREACHABLE", 0, 0}}, 2},
		{"a wait ending on the deadline gives up", fixed(time.Second), 0, 0,
			[]Attempt{{1, "UNREACHABLE", 0, 500}, {2, "UNREACHABLE", 0, 0}}, 2},
		{"run deadline", fixed(0), 1200 * ms, 0,
			[]Attempt{{1, "UNREACHABLE", 0, 500}, {2, "UNREACHABLE", 0, 500}, {3, "UNREACHABLE", 0, 0}}, 3},
		{"the earlier deadline wins", fixed(100 * time.Second), 800 * ms, 0,
			[]Attempt{{1, "UNREACHABLE", 0, 500}, {2, "UNREACHABLE", 0, 0}}, 2},
		{"the earlier deadline wins, other way", fixed(800 * ms), 100 * time.Second, 0,
			[]Attempt{{1, "UNREACHABLE", 0, 500}, {2, "UNREACHABLE", 0, 0}}, 2},
		{"deadline reached during an attempt", fixed(time.Second), 0, 2 * time.Second,
			[]Attempt{{1, "UNREACHABLE", 0, 0}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness()
			if tt.run > 0 {
				h.env.RunDeadline = t0.Add(tt.run)
			}
			got := h.do(tt.p, post, func(context.Context, int) error {
				h.tries++
				h.clock.Advance(tt.spend)
				return errRefused
			})
			checkResult(t, got, OutcomeDeadline, tt.attempts)
			if h.tries != tt.wantTries {
				t.Errorf("%d attempts, want %d", h.tries, tt.wantTries)
			}
		})
	}
}

func TestDeadlineCheckedAfterTheWait(t *testing.T) {
	t.Parallel()
	// A real wait can overrun; the waiter here takes 2 s for a 500 ms wait.
	p := Policy{MaxAttempts: 3, Backoff: BackoffFixed, Delay: 500 * ms, MaxDelay: 5 * time.Second, On: DefaultOn(), Deadline: time.Second}
	h := newHarness()
	h.env.Wait = func(context.Context, time.Duration) error { h.clock.Advance(2 * time.Second); return nil }
	got := h.do(p, post, h.always(errRefused))
	checkResult(t, got, OutcomeDeadline, []Attempt{{1, "UNREACHABLE", 0, 500}})
	if h.tries != 1 {
		t.Errorf("%d attempts, want 1", h.tries)
	}
}

func TestContextDeadlineIsDeadline(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	h := newHarness()
	got := Do(ctx, two(failure.Timeout), get, h.env, func(ctx context.Context, _ int) error {
		h.tries++
		return ctx.Err()
	})
	checkResult(t, got, OutcomeDeadline, []Attempt{{1, "TIMEOUT", 0, 0}})
}
