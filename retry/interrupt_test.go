package retry

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
)

func TestInterruptDuringAWait(t *testing.T) {
	t.Parallel()
	h := newHarness()
	stop := make(chan struct{})
	h.env.Interrupt = stop
	// The waiter spends 200 ms, then a newer message arrives; it returns
	// only when Do cancels its context.
	h.env.Wait = func(ctx context.Context, _ time.Duration) error {
		h.clock.Advance(200 * ms)
		close(stop)
		<-ctx.Done()
		return ctx.Err()
	}
	p := Policy{MaxAttempts: 3, Backoff: BackoffFixed, Delay: time.Second, MaxDelay: 5 * time.Second, On: DefaultOn()}
	got := h.do(p, post, h.always(errRefused))
	checkResult(t, got, OutcomeInterrupted, []Attempt{{1, "UNREACHABLE", 0, 200}})
	if h.tries != 1 {
		t.Errorf("%d attempts, want 1", h.tries)
	}
}

func TestInterruptBeforeTheNextAttempt(t *testing.T) {
	t.Parallel()
	h := newHarness()
	stop := make(chan struct{})
	h.env.Interrupt = stop
	// This waiter ignores the interrupt and waits its full time.
	h.env.Wait = func(_ context.Context, d time.Duration) error {
		close(stop)
		h.clock.Advance(d)
		return nil
	}
	got := h.do(two(failure.Unreachable), post, h.always(errRefused))
	checkResult(t, got, OutcomeInterrupted, []Attempt{{1, "UNREACHABLE", 0, 100}})
	if h.tries != 1 {
		t.Errorf("%d attempts, want 1", h.tries)
	}
}

func TestInterruptDuringAnAttempt(t *testing.T) {
	t.Parallel()
	h := newHarness()
	stop := make(chan struct{})
	h.env.Interrupt = stop
	got := h.do(Builtin("action"), get, func(context.Context, int) error {
		h.tries++
		close(stop)
		return errRefused
	})
	checkResult(t, got, OutcomeInterrupted, []Attempt{{1, "UNREACHABLE", 0, 0}})
	if h.tries != 1 || len(h.waits) != 0 {
		t.Errorf("%d attempts and waits %v after an interrupt", h.tries, h.waits)
	}
}

func TestCancelledContext(t *testing.T) {
	t.Parallel()
	// Cancelled during a wait: interrupted, with the time waited so far.
	ctx, cancel := context.WithCancel(context.Background())
	h := newHarness()
	h.env.Wait = func(ctx context.Context, _ time.Duration) error {
		h.clock.Advance(50 * ms)
		cancel()
		return ctx.Err()
	}
	got := Do(ctx, two(failure.Unreachable), post, h.env, h.always(errRefused))
	checkResult(t, got, OutcomeInterrupted, []Attempt{{1, "UNREACHABLE", 0, 50}})

	// Cancelled during an attempt: interrupted, not a not_retryable UNKNOWN.
	ctx, cancel = context.WithCancel(context.Background())
	h = newHarness()
	got = Do(ctx, two(allOn...), get, h.env, func(ctx context.Context, _ int) error {
		cancel()
		return ctx.Err()
	})
	checkResult(t, got, OutcomeInterrupted, []Attempt{{1, "UNKNOWN", 0, 0}})
}

func TestPerAttemptTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness()
	h.env.Timeout = time.Nanosecond
	// The attempt reports only that its stream closed; the expired context
	// makes it a TIMEOUT, assumed sent, so a POST is not resent.
	errClosed := errors.New("stream closed")
	got := h.do(two(failure.Timeout), post, func(ctx context.Context, _ int) error {
		h.tries++
		<-ctx.Done()
		return errClosed
	})
	checkResult(t, got, OutcomeNotIdempotent, []Attempt{{1, "TIMEOUT", 0, 0}})
	if !errors.Is(got.Err, errClosed) {
		t.Errorf("Err %v does not wrap the attempt's error", got.Err)
	}

	// A GET that times out is resent, each attempt with its own timeout.
	h = newHarness()
	h.env.Timeout = time.Nanosecond
	got = h.do(two(failure.Timeout), get, func(ctx context.Context, _ int) error {
		h.tries++
		<-ctx.Done()
		return ctx.Err()
	})
	checkResult(t, got, OutcomeExhausted, []Attempt{{1, "TIMEOUT", 0, 100}, {2, "TIMEOUT", 0, 0}})

	// An answer that arrived as the timeout fired keeps its own class.
	h = newHarness()
	h.env.Timeout = time.Nanosecond
	got = h.do(two(allOn...), get, func(ctx context.Context, _ int) error {
		<-ctx.Done()
		return err404
	})
	checkResult(t, got, OutcomeNotRetryable, []Attempt{{1, "REJECTED", 404, 0}})

	// A timeout while connecting is not sent, so even a POST is resent.
	h = newHarness()
	h.env.Timeout = time.Nanosecond
	got = h.do(two(failure.Timeout), post, h.failingAfterTimeout(&failure.Error{Message: "connecting"}))
	checkResult(t, got, OutcomeSucceededAfterRetry, []Attempt{{1, "TIMEOUT", 0, 100}})
}

// failingAfterTimeout fails the first attempt with err once its context
// expires, and lets the second succeed.
func (h *harness) failingAfterTimeout(err error) func(context.Context, int) error {
	return func(ctx context.Context, n int) error {
		if n > 1 {
			return nil
		}
		<-ctx.Done()
		return err
	}
}

func TestAttemptContextBoundedByDeadlines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		timeout  time.Duration
		deadline time.Duration // policy deadline
		run      time.Duration // run deadline after t0
		want     time.Duration // 0 = no deadline on the attempt
	}{
		{"no limits", 0, 0, 0, 0},
		{"timeout alone", 30 * time.Second, 0, 0, 30 * time.Second},
		{"run deadline shortens the timeout", 30 * time.Second, 0, 2 * time.Second, 2 * time.Second},
		{"policy deadline shortens the timeout", 30 * time.Second, 3 * time.Second, 0, 3 * time.Second},
		{"deadline without timeout", 0, 4 * time.Second, 0, 4 * time.Second},
		{"timeout shorter than deadlines", time.Second, 5 * time.Second, 6 * time.Second, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness()
			h.env.Timeout = tt.timeout
			if tt.run > 0 {
				h.env.RunDeadline = t0.Add(tt.run)
			}
			p := Policy{MaxAttempts: 1, Deadline: tt.deadline}
			Do(context.Background(), p, get, h.env, func(ctx context.Context, _ int) error {
				dl, ok := ctx.Deadline()
				if tt.want == 0 {
					if ok {
						t.Errorf("attempt has a deadline %v", time.Until(dl))
					}
					return nil
				}
				if left := time.Until(dl); !ok || left > tt.want || left < tt.want-time.Second {
					t.Errorf("attempt's time left = %v (set %v), want about %v", left, ok, tt.want)
				}
				return nil
			})
		})
	}
}
