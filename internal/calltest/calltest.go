// Package calltest gives the tests of calling nodes a run's Services whose
// retry waits are recorded instead of slept.
package calltest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/outbound"
)

// Env is a run's Services: the guarded client with only 127.0.0.1 opened,
// jitter fixed at its middle, and waits recorded instead of slept.
type Env struct {
	Services *node.Services
	mu       sync.Mutex
	waits    []time.Duration
}

// NewEnv returns an Env calling the actions given (nil for none).
func NewEnv(t testing.TB, actions callout.ActionSource) *Env {
	t.Helper()
	allow, err := outbound.ParseAllowlist("127.0.0.1/32")
	if err != nil {
		t.Fatal(err)
	}
	client, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.CloseIdleConnections)
	e := &Env{}
	e.Services = node.NewServices(
		callout.HTTPKey.With(client),
		callout.ActionsKey.With(actions),
		callout.RandKey.With(func() float64 { return 0.5 }),
		callout.WaitKey.With(func(ctx context.Context, d time.Duration) error {
			e.mu.Lock()
			e.waits = append(e.waits, d)
			e.mu.Unlock()
			return ctx.Err()
		}))
	return e
}

// Waited returns the waits recorded so far.
func (e *Env) Waited() []time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]time.Duration(nil), e.waits...)
}

// Attempts renders a trace row's attempts as "n:CLASS/status/waitMs".
func Attempts(row engine.TraceRow) string {
	if row.TraceDetail == nil {
		return ""
	}
	parts := make([]string, len(row.Attempts))
	for i, a := range row.Attempts {
		parts[i] = fmt.Sprintf("%d:%s/%d/%d", a.N, a.ErrorClass, a.HTTPStatus, a.WaitMs)
	}
	return strings.Join(parts, " ")
}

// Outcome is a trace row's retryOutcome, "" when it has none.
func Outcome(row engine.TraceRow) string {
	if row.TraceDetail == nil {
		return ""
	}
	return row.RetryOutcome
}
