package subagent

import (
	"context"

	"github.com/wetel/wetel/node"
)

// Request is one target of a dispatch, as the node hands it over.
type Request struct {
	// ParentSessionID is the session whose run dispatches.
	ParentSessionID int64
	AgentID         int64
	// Text is the target's rendered messageTemplate: the child session's
	// one message.
	Text string
	// Depth is the child run's nesting: the parent's depth plus one.
	Depth int
}

// Target statuses in the result array (PLATFORM §6).
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusTimeout = "timeout"
)

// Result is what one target did.
type Result struct {
	SessionID int64
	// Status is StatusOK, StatusError or StatusTimeout.
	Status string
	// Messages are what the child's run said, in order.
	Messages []string
	// Output is the variables the child's run wrote, without its turn facts.
	Output map[string]any
	// Error says why the child failed, redacted as any run error is.
	Error string
}

// Dispatcher runs a target as a child session of its agent. Dispatch
// returns when the child's turn ends, or when ctx is done (its timeout, or
// the parent interrupted): the child is then interrupted before its next
// dispatch, and Status is StatusTimeout. An error is a configuration error
// (an agent that is not the workspace's own) and fails the node; a child
// that failed is a Result with StatusError.
type Dispatcher interface {
	Dispatch(ctx context.Context, r Request) (Result, error)
}

// DispatcherKey is the capability a sub_agent node needs: child sessions
// of the run's workspace. The server provides it; where it is missing the
// node says so (node.Unavailable).
var DispatcherKey = node.NewKey[Dispatcher]("child sessions for sub_agent")
