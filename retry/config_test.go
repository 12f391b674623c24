package retry

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
)

func TestFromConfig(t *testing.T) {
	t.Parallel()
	defaults := Policy{
		MaxAttempts: 3, Backoff: BackoffExponential, Delay: 500 * ms, MaxDelay: 5000 * ms,
		Jitter: true, On: []failure.Code{failure.Unreachable, failure.RateLimited}, Explicit: true,
	}
	tests := []struct {
		name  string
		retry map[string]any
		want  Policy
	}{
		{"seed defaults", map[string]any{"maxAttempts": float64(3)}, defaults},
		{"int and json.Number accepted", map[string]any{"maxAttempts": 3, "delayMs": json.Number("500"), "maxDelayMs": int64(5000)}, defaults},
		{"every field", map[string]any{
			"maxAttempts": float64(4), "backoff": "fixed", "delayMs": float64(250), "maxDelayMs": float64(1000),
			"jitter": false, "on": []any{"TIMEOUT", "UPSTREAM_ERROR", "TIMEOUT"}, "idempotent": true, "deadlineMs": float64(20000),
		}, Policy{
			MaxAttempts: 4, Backoff: BackoffFixed, Delay: 250 * ms, MaxDelay: 1000 * ms,
			On: []failure.Code{failure.Timeout, failure.UpstreamError}, Idempotent: true, Deadline: 20 * time.Second, Explicit: true,
		}},
		{"maxAttempts 1 turns retrying off", map[string]any{"maxAttempts": float64(1)}, func() Policy { p := defaults; p.MaxAttempts = 1; return p }()},
		{"empty on retries nothing", map[string]any{"maxAttempts": float64(2), "on": []any{}}, func() Policy {
			p := defaults
			p.MaxAttempts, p.On = 2, []failure.Code{}
			return p
		}()},
		{"on as []string", map[string]any{"maxAttempts": float64(2), "on": []string{"RATE_LIMITED"}}, func() Policy {
			p := defaults
			p.MaxAttempts, p.On = 2, []failure.Code{failure.RateLimited}
			return p
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := FromConfig("action", tt.retry)
			if err != nil {
				t.Fatalf("FromConfig: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FromConfig = %+v\nwant         %+v", got, tt.want)
			}
		})
	}
}

func TestFromConfigNilIsBuiltin(t *testing.T) {
	t.Parallel()
	for _, typ := range []string{"tool", "action", "webhook"} {
		got, err := FromConfig(typ, nil)
		if err != nil || !reflect.DeepEqual(got, Builtin(typ)) {
			t.Errorf("FromConfig(%q, nil) = %+v, %v; want Builtin", typ, got, err)
		}
	}
}

func TestFromConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		retry map[string]any
		want  string
	}{
		{map[string]any{}, "retry.maxAttempts is required"},
		{map[string]any{"maxAttempts": float64(5)}, "retry.maxAttempts must be an integer from 1 to 4, not 5"},
		{map[string]any{"maxAttempts": float64(0)}, "retry.maxAttempts must be an integer from 1 to 4"},
		{map[string]any{"maxAttempts": 2.5}, "retry.maxAttempts must be an integer"},
		{map[string]any{"maxAttempts": "3"}, "retry.maxAttempts must be an integer"},
		{map[string]any{"maxAttempts": json.Number("x")}, "retry.maxAttempts must be an integer"},
		{map[string]any{"maxAttempts": float64(2), "tries": float64(3)}, "retry.tries is not a known field"},
		{map[string]any{"maxAttempts": float64(2), "backoff": "linear"}, `retry.backoff must be "fixed" or "exponential"`},
		{map[string]any{"maxAttempts": float64(2), "delayMs": float64(50)}, "retry.delayMs must be an integer from 100 to 5000"},
		{map[string]any{"maxAttempts": float64(2), "delayMs": float64(800), "maxDelayMs": float64(500)}, "retry.maxDelayMs must be an integer from 800 to 5000"},
		{map[string]any{"maxAttempts": float64(2), "maxDelayMs": float64(6000)}, "retry.maxDelayMs must be an integer from 500 to 5000"},
		{map[string]any{"maxAttempts": float64(2), "deadlineMs": float64(999)}, "retry.deadlineMs must be an integer from 1000 to 120000"},
		{map[string]any{"maxAttempts": float64(2), "jitter": "yes"}, "retry.jitter must be true or false"},
		{map[string]any{"maxAttempts": float64(2), "idempotent": float64(1)}, "retry.idempotent must be true or false"},
		{map[string]any{"maxAttempts": float64(2), "on": []any{"REJECTED"}}, `not "REJECTED"`},
		{map[string]any{"maxAttempts": float64(2), "on": []any{"timeout"}}, `not "timeout"`},
		{map[string]any{"maxAttempts": float64(2), "on": []any{float64(1)}}, "retry.on must list failure classes"},
		{map[string]any{"maxAttempts": float64(2), "on": "TIMEOUT"}, "retry.on must be a list"},
	}
	for _, tt := range tests {
		_, err := FromConfig("tool", tt.retry)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("FromConfig(%v) error = %v, want one containing %q", tt.retry, err, tt.want)
		}
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	got, err := Decode("webhook", json.RawMessage(`{"maxAttempts": 3, "on": ["UNREACHABLE", "RATE_LIMITED", "TIMEOUT"], "idempotent": true}`))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	want := Policy{
		MaxAttempts: 3, Backoff: BackoffExponential, Delay: 500 * ms, MaxDelay: 5000 * ms, Jitter: true,
		On: []failure.Code{failure.Unreachable, failure.RateLimited, failure.Timeout}, Idempotent: true, Explicit: true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode = %+v, want %+v", got, want)
	}
	for _, raw := range []string{"", "null", "  null "} {
		if got, err := Decode("tool", json.RawMessage(raw)); err != nil || !reflect.DeepEqual(got, Builtin("tool")) {
			t.Errorf("Decode(%q) = %+v, %v; want the builtin", raw, got, err)
		}
	}
	for _, raw := range []string{"[1]", "{", `{"maxAttempts": 9}`} {
		if _, err := Decode("tool", json.RawMessage(raw)); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("Decode(%q) error = %v, want ErrInvalidConfig", raw, err)
		}
	}
}
