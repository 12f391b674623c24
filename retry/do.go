package retry

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
)

// Env is what Do takes from its surroundings. The zero value works: the
// real clock, real waits, random jitter, no interrupt, no run deadline, a
// 10 s wait cap and no per-attempt timeout.
type Env struct {
	// Clock tells the time; nil is clock.Real.
	Clock clock.Clock
	// Wait waits between attempts; nil is Sleep.
	Wait Waiter
	// Rand returns the jitter source in [0, 1]; nil is math/rand/v2.
	Rand func() float64
	// Interrupt is closed when a newer message interrupts the turn.
	Interrupt <-chan struct{}
	// RunDeadline is the run's own deadline; zero means none.
	RunDeadline time.Time
	// WaitCap is the total wait allowed per node; 0 is DefaultWaitCap.
	WaitCap time.Duration
	// Timeout bounds each attempt (the node's timeoutMs); 0 means none.
	Timeout time.Duration
}

func (e Env) withDefaults() Env {
	if e.Clock == nil {
		e.Clock = clock.Real{}
	}
	if e.Wait == nil {
		e.Wait = Sleep
	}
	if e.Rand == nil {
		e.Rand = rand.Float64
	}
	if e.WaitCap <= 0 {
		e.WaitCap = DefaultWaitCap
	}
	return e
}

// run is the state of one Do call.
type run struct {
	p        Policy
	call     Call
	env      Env
	deadline time.Time // the earlier of the policy's and the run's; zero if none
	waited   time.Duration
	res      Result
}

// Do makes a call under policy p: it calls attempt (with n from 1) until
// an attempt succeeds or the policy says to stop, and reports each failed
// attempt and why it stopped. The first attempt always runs. A failed
// attempt is resent only when all of these hold, checked in this order:
//
//   - the turn was not interrupted and ctx is alive (else interrupted, or
//     deadline when ctx reached its deadline);
//   - it was not refused before sending (failure.IsRefused; else refused);
//   - its class (failure.Classify) is in p.On and is not REJECTED,
//     INVALID_DATA or UNKNOWN (else not_retryable);
//   - resending is safe: the request never reached the service, or it was
//     rate-limited, or it is idempotent (p.Idempotent or call.Idempotent)
//     (else not_idempotent);
//   - fewer than p.MaxAttempts attempts were made (else exhausted);
//   - a Retry-After on a 429 or 503 (see RetryAfter) is at most
//     p.MaxDelay (else retry_after_too_long); it replaces the backoff wait;
//   - the wait fits in what is left of env.WaitCap (else wait_cap);
//   - the next attempt would start before the policy's deadline, measured
//     from the first attempt's start, and the run's (else deadline).
//
// An interrupt or cancelled ctx during the wait, or seen before the next
// attempt, stops with interrupted. Each attempt gets a context bounded by
// env.Timeout and both deadlines; an attempt that fails because that
// context expired while ctx is alive is a TIMEOUT.
func Do(ctx context.Context, p Policy, call Call, env Env, attempt func(ctx context.Context, n int) error) Result {
	r := &run{p: p, call: call, env: env.withDefaults()}
	start := r.env.Clock.Now()
	if p.Deadline > 0 {
		// Seed: deadlineMs is "Time for all attempts and waits together".
		r.deadline = start.Add(p.Deadline)
	}
	// Seed: "The run's own deadline always applies too."
	if rd := r.env.RunDeadline; !rd.IsZero() && (r.deadline.IsZero() || rd.Before(r.deadline)) {
		r.deadline = rd
	}
	for n := 1; ; n++ {
		if n > 1 {
			if o := r.beforeAttempt(ctx); o != "" {
				r.res.Outcome = o
				return r.res
			}
		}
		err := r.try(ctx, n, attempt)
		if err == nil {
			r.res.Err, r.res.ErrorClass = nil, ""
			if n > 1 {
				r.res.Outcome = OutcomeSucceededAfterRetry
			}
			return r.res
		}
		o := inspect(err)
		r.res.Err, r.res.ErrorClass = err, string(o.class)
		r.res.Attempts = append(r.res.Attempts, Attempt{N: n, ErrorClass: string(o.class), HTTPStatus: o.status})
		wait, stop := r.plan(ctx, n, err, o)
		if stop == "" {
			stop = r.sleep(ctx, wait)
		}
		if stop != "" {
			r.res.Outcome = stop
			return r.res
		}
	}
}

// interrupted returns interrupted or deadline when the turn was interrupted
// or ctx is done, else "".
func (r *run) interrupted(ctx context.Context) string {
	select {
	case <-r.env.Interrupt:
		return OutcomeInterrupted
	default:
	}
	switch ctx.Err() {
	case nil:
		return ""
	case context.DeadlineExceeded:
		return OutcomeDeadline
	default:
		return OutcomeInterrupted
	}
}

// beforeAttempt checks the interrupt and the deadlines again after a wait.
func (r *run) beforeAttempt(ctx context.Context) string {
	// Rule: "An interrupt stops retrying", checked before each new attempt.
	if o := r.interrupted(ctx); o != "" {
		return o
	}
	if !r.deadline.IsZero() && !r.env.Clock.Now().Before(r.deadline) {
		return OutcomeDeadline
	}
	return ""
}

// plan decides whether the failed n-th attempt is resent, and after which
// wait; it returns the outcome when it is not.
func (r *run) plan(ctx context.Context, n int, err error, o outcomeOf) (time.Duration, string) {
	if stop := r.interrupted(ctx); stop != "" {
		return 0, stop
	}
	// A refusal before sending is the same refusal on every attempt.
	if failure.IsRefused(err) {
		return 0, OutcomeRefused
	}
	// Rule: "REJECTED (a 4xx), INVALID_DATA and UNKNOWN are never retried",
	// and a class is retried only when "its class is in on".
	if neverRetried(o.class) || !r.p.retries(o.class) {
		return 0, OutcomeNotRetryable
	}
	// Rule: "Only safe resends."
	if !r.p.safeToResend(r.call, o) {
		return 0, OutcomeNotIdempotent
	}
	// Rule: maxAttempts is "Total attempts including the first".
	if n >= r.p.attempts() {
		return 0, OutcomeExhausted
	}
	wait, stop := r.nextWait(n, err, o)
	if stop != "" {
		return 0, stop
	}
	// Rule: "The total wait per node is capped (10 seconds by default)."
	if r.waited+wait > r.env.WaitCap {
		return 0, OutcomeWaitCap
	}
	if !r.deadline.IsZero() && !r.env.Clock.Now().Add(wait).Before(r.deadline) {
		return 0, OutcomeDeadline
	}
	return wait, ""
}

// nextWait is the backoff wait after the n-th attempt, or the Retry-After
// of a 429 or 503 (or of a failure with no HTTP status, whose caller
// attached it on purpose). Retry-After is taken as asked, without jitter.
func (r *run) nextWait(n int, err error, o outcomeOf) (time.Duration, string) {
	maxDelay := r.p.MaxDelay
	if r.p.NoWait {
		maxDelay = 0
	}
	if after, ok := RetryAfter(err); ok && (o.status == 429 || o.status == 503 || o.status == 0) {
		// Rule: "A Retry-After on a 429 or 503 is honoured; if it asks for
		// longer than maxDelayMs, the node gives up instead."
		if after > maxDelay {
			return 0, OutcomeRetryAfterTooLong
		}
		return after, ""
	}
	if r.p.NoWait {
		return 0, ""
	}
	return r.p.backoff(n, r.env.Rand), ""
}

// try runs attempt n under its own context. Rule: "Each attempt uses the
// node's own timeoutMs", and no attempt outlives either deadline. The
// deadlines are read on the Env's clock and become a timeout on the real
// one: the time left, not the instant, carries over.
func (r *run) try(ctx context.Context, n int, attempt func(context.Context, int) error) error {
	limit := r.env.Timeout
	if !r.deadline.IsZero() {
		if left := r.deadline.Sub(r.env.Clock.Now()); limit <= 0 || left < limit {
			limit = max(left, 0)
		}
	}
	actx, cancel := ctx, context.CancelFunc(func() {})
	if limit > 0 || !r.deadline.IsZero() {
		actx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	err := attempt(actx, n)
	if err == nil || ctx.Err() != nil || actx.Err() != context.DeadlineExceeded {
		return err
	}
	// The attempt's own time ran out: a TIMEOUT, unless the service had
	// already answered or the error says so itself.
	if failure.Classify(err) == failure.Timeout || httpStatus(err) != 0 {
		return err
	}
	return &failure.Error{Code: failure.Timeout, Message: "attempt timed out", Err: err, Sent: reachedService(err)}
}
