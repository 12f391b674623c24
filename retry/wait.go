package retry

import (
	"context"
	"time"

	"github.com/wetel/wetel/clock"
)

// jitterSpread is how far jitter moves a wait either way (seed: "Spreads
// each wait by up to 20 % either way").
const jitterSpread = 0.2

// Waiter waits d, or less when ctx is done first, in which case it returns
// ctx's error. Do cancels ctx when the turn is interrupted. The wait is
// injected rather than read from the Clock's timers, so a test's wait can
// return at once: Sleep in production, FakeWait or a test's own function
// in tests.
type Waiter func(ctx context.Context, d time.Duration) error

// Sleep is the real Waiter: it waits d on a timer, or until ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// FakeWait returns a Waiter that advances f by d at once instead of
// waiting, unless ctx is already done.
func FakeWait(f *clock.Fake) Waiter {
	return func(ctx context.Context, d time.Duration) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f.Advance(d)
		return nil
	}
}

// backoff returns the wait after the k-th failed attempt (k from 1): fixed
// waits Delay every time, exponential waits Delay * 2^(k-1) (seed: "fixed"
// waits delayMs every time; "exponential" doubles it). Jitter then
// multiplies it by 0.8 + 0.4*r for r = rnd() clamped to [0, 1], so r = 0
// gives -20 % and r = 1 gives +20 %. The result is rounded to the
// millisecond and capped at MaxDelay after jitter (seed: maxDelayMs is the
// "Cap on any one wait"), so jitter at the cap only shortens a wait. It is
// never negative.
func (p Policy) backoff(k int, rnd func() float64) time.Duration {
	doublings := 0
	if p.Backoff == BackoffExponential {
		doublings = k - 1
	}
	d := clock.Backoff(max(p.Delay, 0), p.MaxDelay, doublings)
	if p.Jitter && d > 0 {
		r := min(max(rnd(), 0), 1)
		d = time.Duration(float64(d) * (1 - jitterSpread + 2*jitterSpread*r))
	}
	return min(max(d.Round(time.Millisecond), 0), max(p.MaxDelay, 0))
}

// waitStopped is how a wait that did not run its course ended: an interrupt
// or a cancelled ctx is interrupted, the ctx's deadline is deadline.
func (r *run) waitStopped(ctx context.Context) string {
	select {
	case <-r.env.Interrupt:
		return OutcomeInterrupted
	default:
	}
	if ctx.Err() == context.DeadlineExceeded {
		return OutcomeDeadline
	}
	return OutcomeInterrupted
}

// sleep waits d through the Env's Waiter, cancelling the wait when the
// turn is interrupted. It records the wait on the last attempt and returns
// an outcome when the wait was cut short. A cut-short wait records the time
// actually spent waiting, by the Env's clock.
func (r *run) sleep(ctx context.Context, d time.Duration) string {
	last := &r.res.Attempts[len(r.res.Attempts)-1]
	if d <= 0 {
		return ""
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if r.env.Interrupt != nil {
		go func() {
			select {
			case <-r.env.Interrupt:
				cancel()
			case <-wctx.Done():
			}
		}()
	}
	began := r.env.Clock.Now()
	if err := r.env.Wait(wctx, d); err != nil {
		// Rule: "An interrupt stops retrying."
		last.WaitMs = min(max(clock.Since(r.env.Clock, began), 0), d).Milliseconds()
		return r.waitStopped(ctx)
	}
	r.waited += d
	last.WaitMs = d.Milliseconds()
	return ""
}
