package engine

import "github.com/wetel/wetel/node"

// EventKind names a run event (PLATFORM §4).
type EventKind string

// The events a run publishes, in order.
const (
	EventRunStarted    EventKind = "RunStarted"
	EventNodeExecuting EventKind = "NodeExecuting"
	EventNodeCompleted EventKind = "NodeCompleted"
	EventNodeFailed    EventKind = "NodeFailed"
	EventMessage       EventKind = "Message"
	// EventMessageChunk is a piece of a message still being written (a
	// streamed llm reply), published as it arrives: the API's Message
	// event with isFinal false. The whole message follows as a Message.
	EventMessageChunk EventKind = "MessageChunk"
	EventRunFinished  EventKind = "RunFinished"
)

// Event is one thing a run did. Which fields are set depends on Kind.
type Event struct {
	Kind      EventKind
	RunID     int64
	NodeID    string
	Label     string
	NodeType  string
	Status    string // NodeCompleted: COMPLETED or FAILED_HANDLED; RunFinished: the run status
	ErrorCode string // NodeFailed
	Message   *node.Message
	// Vars is the run's context as it stands, on NodeCompleted (after the
	// node wrote its output) and RunFinished: for an observer the user owns
	// all of, such as `wetel run`. It is the live map, valid only during
	// Observe and never to be changed; never publish it (seed 000: a paused
	// run's stored context is not exposed over the API).
	Vars map[string]any
}

// Observer receives a run's events as they happen, on the run's goroutine;
// it must not block (a slow subscriber must never slow a run).
type Observer interface {
	Observe(Event)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(Event)

// Observe calls f.
func (f ObserverFunc) Observe(e Event) { f(e) }
