package callout

import (
	"context"
	"errors"
	"time"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/retry"
)

// Timeouts of one attempt of a call (seed: "default 10s, ceiling 30s on
// action/webhook/tool nodes").
const (
	DefaultCallTimeout = 10 * time.Second
	MaxCallTimeout     = 30 * time.Second
)

// CallTimeout is the time one attempt of a call may take: the node's
// timeoutMs, else the registered action's own, else 10 s, never above 30 s.
func CallTimeout(nodeMs, ownMs int) time.Duration {
	d := DefaultCallTimeout
	switch {
	case nodeMs > 0:
		d = time.Duration(nodeMs) * time.Millisecond
	case ownMs > 0:
		d = time.Duration(ownMs) * time.Millisecond
	}
	return min(d, MaxCallTimeout)
}

// Retry makes a call of x's node under its retry policy (seed: "Retrying
// a failed call: retry"): attempt runs with n from 1 under the RetryEnv of
// the dispatch. A call that succeeded after retrying is noted
// (Exec.NoteCall) for the trace row; on failure the error is a
// *node.CallError whose Err is the last attempt's error passed through
// RedactError with label and secrets.
func Retry(ctx context.Context, x *node.Exec, p retry.Policy, call retry.Call, timeout time.Duration,
	label string, secrets []string, attempt func(ctx context.Context, n int) error) error {
	res := retry.Do(ctx, p, call, RetryEnv(x, timeout), attempt)
	rep := node.CallReport{Attempts: res.Attempts, Outcome: res.Outcome}
	if res.Err != nil {
		return &node.CallError{Err: RedactError(res.Err, label, secrets), CallReport: rep}
	}
	if res.Outcome != "" {
		x.NoteCall(&rep)
	}
	return nil
}

// RedactError returns err as a *failure.Error of the same class and HTTP
// status whose message is "label: " and err's text with the secret values
// and every recognisable secret removed (failure.RedactValues). The cause
// is dropped: its text is the unredacted one. Rule: credentials are never
// in traces, events, logs or _lastNodeError.
func RedactError(err error, label string, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if label != "" {
		msg = label + ": " + msg
	}
	out := &failure.Error{Code: failure.Classify(err), Message: failure.RedactValues(msg, secrets)}
	var fe *failure.Error
	for e := err; errors.As(e, &fe); e = fe.Err {
		out.Sent = out.Sent || fe.Sent
		out.Refused = out.Refused || fe.Refused
		if out.HTTPStatus == 0 {
			out.HTTPStatus = fe.HTTPStatus
		}
		if fe.Err == nil {
			break
		}
	}
	return out
}
