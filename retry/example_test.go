package retry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/retry"
)

// A POST action with a retry policy: the first attempt cannot connect, the
// second is rate-limited with a Retry-After, the third succeeds.
func ExampleDo() {
	p, err := retry.FromConfig("action", map[string]any{"maxAttempts": float64(3), "jitter": false})
	if err != nil {
		panic(err)
	}
	fake := clock.NewFake(time.Date(2026, 10, 24, 9, 0, 0, 0, time.UTC))
	env := retry.Env{Clock: fake, Wait: retry.FakeWait(fake)}
	call := retry.Call{Method: http.MethodPost}

	res := retry.Do(context.Background(), p, call, env, func(ctx context.Context, n int) error {
		switch n {
		case 1:
			return &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
		case 2:
			answer := &failure.Error{HTTPStatus: http.StatusTooManyRequests, Sent: true}
			return retry.WithRetryAfter(answer, http.StatusTooManyRequests, http.Header{"Retry-After": {"2"}}, fake.Now())
		}
		return nil
	})
	attempts, _ := json.Marshal(res.Attempts)
	fmt.Println(res.Outcome)
	fmt.Println(string(attempts))
	// Output:
	// succeeded_after_retry
	// [{"n":1,"errorClass":"UNREACHABLE","waitMs":500},{"n":2,"errorClass":"RATE_LIMITED","httpStatus":429,"waitMs":2000}]
}

// A POST that timed out may have reached the service, so it is not resent
// unless the node says it is idempotent.
func ExampleDo_notIdempotent() {
	p, _ := retry.FromConfig("webhook", map[string]any{"maxAttempts": float64(3), "on": []any{"TIMEOUT"}})
	res := retry.Do(context.Background(), p, retry.Call{Method: http.MethodPost}, retry.Env{},
		func(ctx context.Context, n int) error {
			return &failure.Error{Code: failure.Timeout, Message: "no answer in 10s", Sent: true}
		})
	fmt.Println(res.Outcome, res.ErrorClass, len(res.Attempts))
	// Output:
	// not_idempotent TIMEOUT 1
}
