package retry

import (
	"context"
	"errors"
	"net"
	"reflect"
	"syscall"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
)

// t0 is the fake clock's start in every test.
var t0 = time.Date(2026, 10, 24, 9, 0, 0, 0, time.UTC)

// Failures as the callers raise them.
var (
	errRefused    = &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	errReset      = &failure.Error{Code: failure.Unreachable, Message: "connection reset by peer", Sent: true}
	errUnsent     = &failure.Error{Code: failure.Unreachable, Message: "connecting to MCP server"}
	errTimeoutPst = &failure.Error{Code: failure.Timeout, Message: "POST timed out", Sent: true}
	err429        = &failure.Error{HTTPStatus: 429, Sent: true}
	err502        = &failure.Error{HTTPStatus: 502, Sent: true}
	err503        = &failure.Error{HTTPStatus: 503, Sent: true}
	err404        = &failure.Error{HTTPStatus: 404, Sent: true}
	errBadJSON    = &failure.Error{Code: failure.InvalidData, Message: "reply is not JSON", Sent: true}
	errBoom       = errors.New("boom")
)

// allOn lists every class a config may name.
var allOn = []failure.Code{failure.Timeout, failure.Unreachable, failure.RateLimited, failure.UpstreamError}

// harness runs Do with a fake clock, a waiter that advances it and a fixed
// jitter source, and records every wait and attempt.
type harness struct {
	clock *clock.Fake
	env   Env
	waits []time.Duration
	tries int
}

func newHarness() *harness {
	h := &harness{clock: clock.NewFake(t0)}
	h.env = Env{Clock: h.clock, Rand: func() float64 { return 0.5 }, Wait: h.wait}
	return h
}

func (h *harness) wait(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	h.waits = append(h.waits, d)
	h.clock.Advance(d)
	return nil
}

// failing returns an attempt function that fails with errs in turn and
// succeeds once they run out.
func (h *harness) failing(errs ...error) func(context.Context, int) error {
	return func(_ context.Context, n int) error {
		h.tries++
		if n != h.tries {
			panic("attempt numbers out of order")
		}
		if n <= len(errs) {
			return errs[n-1]
		}
		return nil
	}
}

// always returns an attempt function that always fails with err.
func (h *harness) always(err error) func(context.Context, int) error {
	return func(context.Context, int) error {
		h.tries++
		return err
	}
}

func (h *harness) do(p Policy, call Call, attempt func(context.Context, int) error) Result {
	return Do(context.Background(), p, call, h.env, attempt)
}

// checkResult compares the parts of a Result a trace shows, and checks that
// Err classifies as ErrorClass.
func checkResult(t *testing.T, got Result, outcome string, attempts []Attempt) {
	t.Helper()
	if got.Outcome != outcome {
		t.Errorf("outcome = %q, want %q", got.Outcome, outcome)
	}
	if !reflect.DeepEqual(got.Attempts, attempts) {
		t.Errorf("attempts = %+v, want %+v", got.Attempts, attempts)
	}
	if got.Err == nil {
		if got.ErrorClass != "" {
			t.Errorf("errorClass = %q with no error", got.ErrorClass)
		}
		return
	}
	if c := failure.Classify(got.Err); string(c) != got.ErrorClass {
		t.Errorf("Classify(Err) = %s, ErrorClass = %s", c, got.ErrorClass)
	}
	if len(attempts) > 0 && got.ErrorClass != attempts[len(attempts)-1].ErrorClass {
		t.Errorf("errorClass = %q, last attempt's is %q", got.ErrorClass, attempts[len(attempts)-1].ErrorClass)
	}
}

// two is a policy with two attempts, a fixed 100 ms wait and no jitter.
func two(on ...failure.Code) Policy {
	return Policy{MaxAttempts: 2, Backoff: BackoffFixed, Delay: 100 * time.Millisecond, MaxDelay: 5 * time.Second, On: on}
}
