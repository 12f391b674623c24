package callout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/mcpclient"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/retry"
)

// The capabilities of a run's node.Services this package declares. Each
// is optional: a node that needs one that is missing fails with
// node.Unavailable, saying what to do.
var (
	// HTTPKey is the client that makes every outbound HTTP call (webhook
	// and action nodes), with the SSRF guard and the operator's allowlist.
	HTTPKey = node.NewKey[*outbound.Client]("outbound HTTP client")
	// ActionsKey looks up the custom actions action nodes call by id.
	ActionsKey = node.NewKey[ActionSource]("custom actions")
	// ToolsKey calls the tools of the MCP connectors tool nodes name by id.
	ToolsKey = node.NewKey[ToolCaller]("MCP connectors")
	// OutboxKey takes the requests of webhooks with async: true.
	OutboxKey = node.NewKey[Outbox]("async webhook outbox")
	// ClockKey, WaitKey and RandKey drive retry waits and backoff jitter;
	// when missing, the run's clock (Exec.Clock), real sleeping and
	// math/rand.
	ClockKey = node.NewKey[clock.Clock]("retry clock")
	WaitKey  = node.NewKey[retry.Waiter]("retry waiter")
	RandKey  = node.NewKey[func() float64]("retry jitter source")
)

// httpClient is the run's guarded HTTP client, or nil.
func httpClient(x *node.Exec) *outbound.Client {
	c, _ := HTTPKey.Get(x.Services)
	return c
}

// errNoHTTP is the error of an HTTP-calling node that has no client.
func errNoHTTP(x *node.Exec) error {
	return node.Unavailable(x.NodeType, x.NodeID, "outbound HTTP calls are not available here; run it with wetel run, or in mock mode with a mockResponse")
}

// CustomAction is a registered REST endpoint, as an action node calls it:
// headers already decrypted, URL a template rendered with the run's
// variables (see ParseURLTemplate).
type CustomAction struct {
	ID      int64
	Name    string
	Method  string // GET, POST, PUT, PATCH or DELETE; "" is POST
	URL     string
	Headers map[string]string
	// TimeoutMs is the action's own timeout for one attempt; 0 leaves the
	// node's default.
	TimeoutMs int
}

// Label names the action in messages: `custom action 41 (submit-claim)`.
func (a CustomAction) Label() string {
	if a.Name == "" {
		return fmt.Sprintf("custom action %d", a.ID)
	}
	return fmt.Sprintf("custom action %d (%s)", a.ID, a.Name)
}

// ErrNoSuchAction is wrapped by an ActionSource's error for an id that is
// not registered.
var ErrNoSuchAction = errors.New("custom action is not registered")

// ActionSource looks custom actions up by id.
type ActionSource interface {
	// CustomAction returns the action with the id, its headers decrypted,
	// or an error wrapping ErrNoSuchAction when there is none.
	CustomAction(ctx context.Context, id int64) (CustomAction, error)
}

// ToolCaller calls a tool of a registered MCP connector.
type ToolCaller interface {
	// CallTool calls the tool; its errors are classified as
	// mcpclient.Pool.Call's are (a *failure.Error with Sent set, schema
	// drift INVALID_DATA, a tool error UPSTREAM_ERROR).
	CallTool(ctx context.Context, connectorID int64, tool string, args map[string]any) (mcpclient.Result, error)
}

// PoolTools adapts an mcpclient.Pool to ToolCaller.
type PoolTools struct{ Pool *mcpclient.Pool }

// CallTool calls the tool through the pool.
func (p PoolTools) CallTool(ctx context.Context, connectorID int64, tool string, args map[string]any) (mcpclient.Result, error) {
	return p.Pool.Call(ctx, int(connectorID), tool, args)
}

// OutboundRequest is an async webhook's request, rendered and checked,
// waiting to be sent.
type OutboundRequest struct {
	RunID   int64
	NodeID  string
	Method  string
	URL     string
	Headers map[string]string
	Body    []byte
	// Timeout bounds the delivery (the node's timeoutMs).
	Timeout time.Duration
}

// Outbox takes async webhook requests and sends them later, so the node
// completes at once (seed: "With async: true, only a failure before the
// request is sent" fails the node). Durable implementations keep them
// across a restart; MemoryOutbox sends them from this process.
type Outbox interface {
	Enqueue(ctx context.Context, r OutboundRequest) error
}

// RetryEnv is the retry environment of one call of x's dispatch: the
// run's interrupt and deadline, the node's timeout for each attempt, and
// the Services' clock, waiter and jitter source.
func RetryEnv(x *node.Exec, timeout time.Duration) retry.Env {
	env := retry.Env{Clock: x.Clock, Interrupt: x.Interrupt, RunDeadline: x.Deadline, Timeout: timeout}
	if c, ok := ClockKey.Get(x.Services); ok {
		env.Clock = c
	}
	env.Wait, _ = WaitKey.Get(x.Services)
	env.Rand, _ = RandKey.Get(x.Services)
	return env
}

// now reads the clock x's retries use.
func now(x *node.Exec) time.Time {
	if c, ok := ClockKey.Get(x.Services); ok {
		return c.Now()
	}
	if x.Clock != nil {
		return x.Clock.Now()
	}
	return time.Now()
}
