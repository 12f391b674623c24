package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/mcpclient"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/retry"
)

// Services are the outside systems the nodes of one run may call: the
// guarded HTTP client, the workspace's custom actions and MCP connectors,
// the queue of async webhooks, and the time and randomness their retries
// use. The engine hands the same *Services to every dispatch of a run
// (Exec.Services). A nil *Services, or a nil field, means the capability is
// not available where the run takes place: a node that needs it fails with
// an UNKNOWN error saying what is missing, never a panic.
type Services struct {
	// HTTP makes every outbound HTTP call (webhook and action nodes), with
	// the SSRF guard and the operator's allowlist.
	HTTP *outbound.Client
	// Actions looks up the custom actions action nodes call by id.
	Actions ActionSource
	// Tools calls the tools of the MCP connectors tool nodes name by id.
	Tools ToolCaller
	// Outbox takes the requests of webhooks with async: true.
	Outbox Outbox
	// Clock, Wait and Rand drive retry waits and backoff jitter; nil means
	// the run's clock (Exec.Clock), real sleeping and math/rand.
	Clock clock.Clock
	Wait  retry.Waiter
	Rand  func() float64
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

// Unavailable is the error of a node whose capability is missing from the
// run's Services: what, in a phrase, says what is missing and what to do.
func Unavailable(nodeType, nodeID, what string) error {
	return &failure.Error{Code: failure.Unknown, Message: fmt.Sprintf("%s node %q: %s", nodeType, nodeID, what)}
}

// RetryEnv is the retry environment of one call of this dispatch: the
// run's interrupt and deadline, the node's timeout for each attempt, and
// the Services' clock, waiter and jitter source.
func (x *Exec) RetryEnv(timeout time.Duration) retry.Env {
	env := retry.Env{Clock: x.Clock, Interrupt: x.Interrupt, RunDeadline: x.Deadline, Timeout: timeout}
	if s := x.Services; s != nil {
		if s.Clock != nil {
			env.Clock = s.Clock
		}
		env.Wait, env.Rand = s.Wait, s.Rand
	}
	return env
}

// now reads the clock the call's retries use.
func (x *Exec) now() time.Time {
	if x.Services != nil && x.Services.Clock != nil {
		return x.Services.Clock.Now()
	}
	if x.Clock != nil {
		return x.Clock.Now()
	}
	return time.Now()
}
