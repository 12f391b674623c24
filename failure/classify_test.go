package failure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// closedPortDialError dials a loopback port that nothing listens on, for a
// real *net.OpError rather than a hand-made one.
func closedPortDialError(t *testing.T) error {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err == nil {
		_ = conn.Close()
		t.Skipf("something answered on %s", addr)
	}
	return err
}

func TestClassifyTypedErrors(t *testing.T) {
	t.Parallel()
	dialErr := closedPortDialError(t)
	var syntaxErr *json.SyntaxError
	if err := json.Unmarshal([]byte("<html>"), new(any)); !errors.As(err, &syntaxErr) {
		t.Fatalf("json.Unmarshal did not return a *json.SyntaxError: %v", err)
	}
	typeErr := json.Unmarshal([]byte(`"x"`), new(int))
	timeoutCtx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-timeoutCtx.Done()

	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"nil", nil, Unknown},
		{"declared code wins over status", &Error{Code: Timeout, HTTPStatus: 500}, Timeout},
		{"declared code wrapped", fmt.Errorf("node lookup: %w", &Error{Code: InvalidData, Message: "HTTP 503"}), InvalidData},
		{"invalid declared code is ignored", &Error{Code: "NOPE", HTTPStatus: 404}, Rejected},
		{"status 429", &Error{HTTPStatus: 429, Message: "slow down"}, RateLimited},
		{"status 404", &Error{HTTPStatus: 404}, Rejected},
		{"status 408 is an answer", &Error{HTTPStatus: 408, Message: "timeout"}, Rejected},
		{"status 503 wrapped", fmt.Errorf("calling action 41: %w", &Error{HTTPStatus: 503}), UpstreamError},
		{"status 200 defers to cause", &Error{HTTPStatus: 200, Err: syntaxErr}, InvalidData},
		{"inner declared code", &Error{Message: "tool call", Err: &Error{Code: RateLimited}}, RateLimited},
		{"no code, message decides", &Error{Message: "connection reset by peer"}, Unreachable},
		{"context.DeadlineExceeded", context.DeadlineExceeded, Timeout},
		{"expired context", fmt.Errorf("call: %w", timeoutCtx.Err()), Timeout},
		{"os.ErrDeadlineExceeded", fmt.Errorf("read: %w", os.ErrDeadlineExceeded), Timeout},
		{"net.Error timeout", &net.DNSError{Err: "i/o timeout", Name: "api.example.com", IsTimeout: true}, Timeout},
		{"real dial error", dialErr, Unreachable},
		{"real dial error wrapped", fmt.Errorf("posting webhook: %w", dialErr), Unreachable},
		{"dns error", fmt.Errorf("lookup: %w", &net.DNSError{Err: "server misbehaving", Name: "x.example"}), Unreachable},
		{"dial OpError with odd text", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("something")}, Unreachable},
		{"ECONNRESET", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, Unreachable},
		{"ECONNREFUSED", fmt.Errorf("x: %w", syscall.ECONNREFUSED), Unreachable},
		{"EHOSTUNREACH", fmt.Errorf("x: %w", syscall.EHOSTUNREACH), Unreachable},
		{"ENETUNREACH", fmt.Errorf("x: %w", syscall.ENETUNREACH), Unreachable},
		{"json syntax", fmt.Errorf("decoding reply: %w", syntaxErr), InvalidData},
		{"json type", fmt.Errorf("decoding reply: %w", typeErr), InvalidData},
		{"falls back to message", errors.New("HTTP 502 Bad Gateway"), UpstreamError},
		{"unrecognised", errors.New("boom"), Unknown},
		{"context canceled", context.Canceled, Unknown},
	}
	for _, tt := range tests {
		if got := Classify(tt.err); got != tt.want {
			t.Errorf("%s: Classify(%v) = %s, want %s", tt.name, tt.err, got, tt.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	cause := errors.New("connection refused")
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Message: "posting webhook", Err: cause}, "posting webhook: connection refused"},
		{&Error{Message: "bad reply"}, "bad reply"},
		{&Error{Err: cause}, "connection refused"},
		{&Error{HTTPStatus: 503}, "HTTP 503 Service Unavailable"},
		{&Error{HTTPStatus: 299}, "HTTP 299"},
		{&Error{Code: RateLimited}, "failure RATE_LIMITED"},
		{&Error{}, "failure"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	wrapped := &Error{Message: "posting webhook", Err: cause, Sent: false}
	if !errors.Is(wrapped, cause) || wrapped.Unwrap() != cause {
		t.Error("Unwrap does not expose the cause")
	}
	// An Error with only a status classifies the same by value and by text.
	for _, status := range []int{400, 404, 429, 500, 503} {
		e := &Error{HTTPStatus: status}
		if Classify(e) != ClassifyMessage(e.Error()) {
			t.Errorf("status %d: Classify = %s, ClassifyMessage(%q) = %s", status, Classify(e), e.Error(), ClassifyMessage(e.Error()))
		}
	}
}
