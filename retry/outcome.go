package retry

// The retry outcomes a trace row carries as retryOutcome (seed: "retryOutcome
// (succeeded_after_retry, exhausted, not_retryable, not_idempotent,
// interrupted, deadline, wait_cap, retry_after_too_long or mock)"). When a
// failure has several reasons not to be resent, Do reports the first of
// this order: interrupted, refused, not_retryable, not_idempotent, exhausted,
// retry_after_too_long, wait_cap, deadline.
const (
	// OutcomeSucceededAfterRetry means an attempt after the first succeeded.
	OutcomeSucceededAfterRetry = "succeeded_after_retry"
	// OutcomeExhausted means the last failure was retryable but maxAttempts
	// was reached. An explicit { "maxAttempts": 1 } that fails with a
	// failure it would otherwise retry reports it.
	OutcomeExhausted = "exhausted"
	// OutcomeRefused means the request was refused before it was sent (the
	// SSRF guard: a private, loopback or metadata address, or a scheme or
	// redirect it does not allow). Nothing reached the service and a resend
	// would be refused again. An addition to the seed's list.
	OutcomeRefused = "refused"
	// OutcomeNotRetryable means the last failure's class is never retried
	// (REJECTED, INVALID_DATA, UNKNOWN) or is not in the policy's on list.
	// A webhook without a retry field, which never retries, reports it.
	OutcomeNotRetryable = "not_retryable"
	// OutcomeNotIdempotent means the class is in on, but the request may
	// have reached the service and is not idempotent, so resending it was
	// not safe.
	OutcomeNotIdempotent = "not_idempotent"
	// OutcomeInterrupted means a newer message interrupted the turn, or the
	// caller's context was cancelled, during an attempt, a wait or before
	// the next attempt.
	OutcomeInterrupted = "interrupted"
	// OutcomeDeadline means the next attempt would start at or after the
	// policy's deadline or the run's deadline (including the caller's
	// context reaching its deadline).
	OutcomeDeadline = "deadline"
	// OutcomeWaitCap means the next wait would take the node's total wait
	// past its cap (10 s by default).
	OutcomeWaitCap = "wait_cap"
	// OutcomeRetryAfterTooLong means a 429 or 503 asked, with Retry-After,
	// for a longer wait than the policy's maxDelay allows.
	OutcomeRetryAfterTooLong = "retry_after_too_long"
	// OutcomeMock is for the caller's mock mode (seed: "In a mock-mode test a
	// mocked failure is classified but never retried"). Do never returns it.
	OutcomeMock = "mock"
)

// Attempt is one failed attempt of a call, as the trace row shows it: no
// error text, no body.
type Attempt struct {
	// N is the attempt's number, from 1.
	N int `json:"n"`
	// ErrorClass is the failure class of the attempt's error.
	ErrorClass string `json:"errorClass"`
	// HTTPStatus is the status of the service's answer, when there was one.
	HTTPStatus int `json:"httpStatus,omitempty"`
	// WaitMs is the wait that followed the attempt: 0 after the last one,
	// or the time actually waited when an interrupt cut the wait short.
	WaitMs int64 `json:"waitMs"`
}

// Result is what Do reports about a call.
type Result struct {
	// Attempts has one entry per failed attempt; nil when the first
	// attempt succeeded.
	Attempts []Attempt
	// Outcome is one of the Outcome constants, or "" when the first
	// attempt succeeded.
	Outcome string
	// ErrorClass is the class of Err, "" on success.
	ErrorClass string
	// Err is the last attempt's error, nil on success. failure.Classify(Err)
	// is always ErrorClass: an attempt cut off by its own timeout is
	// wrapped in a TIMEOUT *failure.Error.
	Err error
}

// Failed reports whether the call failed in the end.
func (r Result) Failed() bool { return r.Err != nil }
