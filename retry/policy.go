// Package retry executes the retry policy of a call made by a tool, action or
// webhook node (seed: "Retrying a failed call: retry"): which failures are
// resent, how long to wait between attempts, and why retrying stopped.
//
// FromConfig turns a node's retry field into a Policy (or the node type's
// built-in policy when the field is absent); Do makes the call, attempt by
// attempt, and returns a Result whose Attempts and Outcome are what the trace
// row shows. Time, waiting and jitter come from the Env, so tests never sleep.
package retry

import (
	"time"

	"github.com/wetel/wetel/failure"
)

// BackoffFixed and BackoffExponential are the values of the retry field's
// backoff.
const (
	// BackoffFixed waits Delay every time.
	BackoffFixed = "fixed"
	// BackoffExponential doubles the wait after each attempt.
	BackoffExponential = "exponential"
)

// DefaultBackoff, DefaultDelay, DefaultMaxDelay and DefaultWaitCap are the
// seed's defaults for a retry field that leaves them out.
const (
	// DefaultBackoff is the seed's default backoff: "exponential".
	DefaultBackoff = BackoffExponential
	// DefaultDelay is the seed's default delayMs: 500.
	DefaultDelay = 500 * time.Millisecond
	// DefaultMaxDelay is the seed's default maxDelayMs: 5000.
	DefaultMaxDelay = 5 * time.Second
	// DefaultWaitCap is the total wait allowed per node: "The total wait per
	// node is capped (10 seconds by default)."
	DefaultWaitCap = 10 * time.Second
)

// DefaultOn returns the seed's default on list: UNREACHABLE and RATE_LIMITED.
func DefaultOn() []failure.Code {
	return []failure.Code{failure.Unreachable, failure.RateLimited}
}

// Policy is a call's retry policy. The zero value makes one attempt and
// never retries.
type Policy struct {
	// MaxAttempts is the total number of attempts including the first;
	// below 1 counts as 1.
	MaxAttempts int
	// Backoff is BackoffFixed or BackoffExponential (anything else is fixed).
	Backoff string
	// Delay is the first wait; MaxDelay caps any one wait, jitter included.
	Delay, MaxDelay time.Duration
	// Jitter spreads each backoff wait by up to 20 % either way.
	Jitter bool
	// On lists the failure classes that may be retried.
	On []failure.Code
	// Idempotent is the workflow author's statement that sending the
	// request twice is harmless.
	Idempotent bool
	// Deadline bounds all attempts and waits together, measured from the
	// start of the first attempt; 0 means none.
	Deadline time.Duration
	// Explicit reports that the node's config carried a retry field, so
	// this policy replaced the built-in one.
	Explicit bool
	// NoWait resends at once: every backoff wait is zero and any positive
	// Retry-After is too long.
	NoWait bool
	// UnsentOnly retries only failures where the request never reached the
	// service, whatever the method, headers or Idempotent say.
	UnsentOnly bool
}

// Builtin returns the policy a node keeps when its config has no retry field
// (seed: "a tool retries a connection failure up to 3 attempts, an action up
// to 3 attempts with no wait, a webhook never retries"):
//
//   - tool: up to 3 attempts, only when the request never reached the
//     service (on UNREACHABLE, UnsentOnly), with a fixed 500 ms wait
//     spread by jitter (400 to 600 ms).
//   - action: up to 3 attempts with no wait, on UNREACHABLE, RATE_LIMITED,
//     TIMEOUT and UPSTREAM_ERROR, but only safe resends (see Do); a 429 or
//     503 that asks to wait with Retry-After gives up with
//     retry_after_too_long, because the action never waits.
//   - webhook, and any other type: one attempt. A failure reports
//     not_retryable, since no failure class is retried.
func Builtin(nodeType string) Policy {
	switch nodeType {
	case "tool":
		return Policy{
			MaxAttempts: 3, Backoff: BackoffFixed, Delay: DefaultDelay, MaxDelay: DefaultMaxDelay,
			Jitter: true, On: []failure.Code{failure.Unreachable}, UnsentOnly: true,
		}
	case "action":
		return Policy{
			MaxAttempts: 3, Backoff: BackoffFixed, NoWait: true,
			On: []failure.Code{failure.Unreachable, failure.RateLimited, failure.Timeout, failure.UpstreamError},
		}
	default:
		return Policy{MaxAttempts: 1}
	}
}

// retries reports whether c is in the policy's on list.
func (p Policy) retries(c failure.Code) bool {
	for _, k := range p.On {
		if k == c {
			return true
		}
	}
	return false
}

// attempts is MaxAttempts, at least 1.
func (p Policy) attempts() int {
	return max(p.MaxAttempts, 1)
}
