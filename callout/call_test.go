package callout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/retry"
)

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	cases := []struct {
		node, own int
		want      time.Duration
	}{
		{0, 0, 10 * time.Second},
		{0, 2500, 2500 * time.Millisecond},
		{700, 2500, 700 * time.Millisecond},
		{0, 60000, 30 * time.Second}, // seed: "ceiling 30s"
	}
	for _, tc := range cases {
		if got := CallTimeout(tc.node, tc.own); got != tc.want {
			t.Errorf("CallTimeout(%d, %d) = %v, want %v", tc.node, tc.own, got, tc.want)
		}
	}
}

// RedactError keeps the class, the status and Sent, and drops the cause,
// whose text is the unredacted one.
func TestRedactError(t *testing.T) {
	t.Parallel()
	inner := &failure.Error{HTTPStatus: 429, Sent: true, Message: "POST https://x.example/a?key=k-998877 answered HTTP 429: slow down, Bearer abc.def"}
	err := RedactError(&retry.AfterError{Err: fmt.Errorf("wrapped: %w", inner), After: time.Second}, `action node "n"`, []string{"k-998877"})
	var fe *failure.Error
	if !errors.As(err, &fe) || fe.Err != nil || fe.HTTPStatus != 429 || !fe.Sent || failure.Classify(err) != failure.RateLimited {
		t.Fatalf("RedactError = %#v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "k-998877") || strings.Contains(msg, "abc.def") || !strings.HasPrefix(msg, `action node "n": wrapped: POST https://x.example/a?key=[REDACTED]`) {
		t.Errorf("message %q", msg)
	}
}

func TestDecodeBody(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ct, body string
		want     any
		err      bool
	}{
		{"application/json; charset=utf-8", `{"a":1}`, map[string]any{"a": 1.0}, false},
		{"application/problem+json", `{"title":"x"}`, map[string]any{"title": "x"}, false},
		{"application/json", `{"a":`, nil, true},
		{"", `[1,2]`, []any{1.0, 2.0}, false},
		{"", `not json`, "not json", false},
		{"text/plain", `{"a":1}`, `{"a":1}`, false},
		{"text/html", "<p>hi</p>", "<p>hi</p>", false},
		{"application/json", "  ", nil, false},
	}
	for _, tc := range cases {
		got, err := decodeBody(tc.ct, []byte(tc.body))
		if (err != nil) != tc.err || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("decodeBody(%q, %q) = %#v, %v", tc.ct, tc.body, got, err)
		}
	}
}

// The retry environment takes the run's interrupt and deadline, and the
// clock, waiter and jitter source of the run's Services when they are
// provided, the run's clock when they are not.
func TestRetryEnv(t *testing.T) {
	t.Parallel()
	runClock := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	stop := make(chan struct{})
	x := &node.Exec{Clock: runClock, Interrupt: stop, Deadline: runClock.Now().Add(time.Minute)}

	env := RetryEnv(x, 2*time.Second)
	if env.Clock != runClock || env.Wait != nil || env.Rand != nil || env.Interrupt != stop ||
		!env.RunDeadline.Equal(x.Deadline) || env.Timeout != 2*time.Second {
		t.Errorf("without Services: %+v", env)
	}
	if !now(x).Equal(runClock.Now()) {
		t.Errorf("now = %v, want the run's clock", now(x))
	}

	retryClock := clock.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	waited := false
	x.Services = node.NewServices(ClockKey.With(retryClock), RandKey.With(func() float64 { return 0.25 }),
		WaitKey.With(func(context.Context, time.Duration) error { waited = true; return nil }))
	env = RetryEnv(x, 0)
	if env.Clock != retryClock || env.Rand == nil || env.Rand() != 0.25 || env.Wait == nil {
		t.Fatalf("with Services: %+v", env)
	}
	if err := env.Wait(context.Background(), time.Second); err != nil || !waited {
		t.Error("the provided waiter was not used")
	}
	if !now(x).Equal(retryClock.Now()) {
		t.Errorf("now = %v, want the retry clock", now(x))
	}
}
