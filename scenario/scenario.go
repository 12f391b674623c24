// Package scenario is Wetel's regression-test format (PLATFORM §8): a file
// naming a graph, the mocks to run it with, and the turns of one
// conversation with what each turn must do. Seed 000 says the platform's
// harness "has no scripted-reply format yet, so a scenario that reaches an
// await_reply node stops there"; here a turn answers the previous turn's
// question simply by being the next message.
//
// The package parses and checks scenario files and judges what a run did
// against them. It does not run graphs: the caller opens a Session (the
// CLI uses the same offline turn service as `wetel run`), so a scenario
// takes the code path a real conversation takes.
package scenario

import (
	"encoding/json"
	"regexp"
	"time"
)

// MaxFileBytes bounds a scenario file.
const MaxFileBytes = 1 << 20

// MaxTurns bounds the turns of one scenario.
const MaxTurns = 200

// DefaultClock is the time a scenario's fixed clock starts at when the file
// sets none, so traces, expiries and timestamps are the same on every run.
var DefaultClock = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// File is one scenario.
type File struct {
	// Path is where the file was read from; Graph is resolved against it.
	Path string
	// Name is the scenario's title; the file name when the file sets none.
	Name string
	// Graph is the graph file to run, relative to the scenario file.
	Graph string
	// Workflow names a workflow on a server instead of a graph file. No
	// offline runner can fetch one: it is refused when run (see Session).
	Workflow string
	// Clock is the fixed time the conversation starts at.
	Clock time.Time
	// Identity signs the session in before the first turn.
	Identity string
	// FailureResponse is what the user is told when a run fails.
	FailureResponse string
	// Mocks override the graph's own mockResponse / mockError per node.
	Mocks []Mock
	// Turns are the messages of the conversation, in order.
	Turns []Turn
}

// Mock replaces one node's mock: exactly one of Response, Error and
// Sequence is set.
type Mock struct {
	Node string
	// Response is the node's mockResponse (JSON).
	Response json.RawMessage
	// Error is the node's mockError.
	Error *MockError
	// Sequence is one outcome per execution of the node, across the whole
	// conversation; the last repeats. Each has Response or Error.
	Sequence []Mock
}

// MockError is a mocked failure: its class and message.
type MockError struct {
	Code    string `json:"code"`
	Message string `json:"message,omitempty"`
}

// Turn is one message and what it must cause.
type Turn struct {
	// Line is where the turn starts in the file, for reports.
	Line int
	// Message is what the user sends; it answers an open question.
	Message string
	// Identity, when set, signs the session in ("" signs out) before the
	// message is sent; a changed identity cancels an open question.
	Identity *string
	// Advance moves the fixed clock forward before the message, so a
	// question's expiry can be tested.
	Advance time.Duration
	// Decision decides an open approval instead of sending a message.
	Decision *Decision
	// Expect is what the turn must do.
	Expect Expect
}

// Decision is a scripted approval decision. Approval nodes cannot run
// offline yet, so a turn with one is refused when run; it is parsed now so
// scenarios written for approvals keep their shape.
type Decision struct {
	Approve bool
	Note    string
}

// Expect is what a turn must do; an unset member is not checked.
type Expect struct {
	// Status is the status of the turn's last run.
	Status string
	// ErrorCode is the errorCode of the turn's last run.
	ErrorCode string
	// Path is the node ids the turn's runs visited, in order (HasPath
	// tells an empty path from none given).
	Path    []string
	HasPath bool
	// Messages are what the turn said, one matcher per message, in order.
	Messages    []TextMatch
	HasMessages bool
	// Vars must be contained in the variables after the turn's last run:
	// each named variable present and equal, objects compared member by
	// member (extra members allowed), arrays element by element.
	Vars map[string]any
	// Trace rows must appear in the turn's trace in this order.
	Trace []TraceMatch
	// SessionEnded, when set, says whether the turn ended the session.
	SessionEnded *bool
}

// TextMatch matches one message: exactly, by substring, or by a regular
// expression; Mood, when set, must equal the message's mood.
type TextMatch struct {
	Exact    *string
	Contains string
	Matches  *regexp.Regexp
	Mood     string
}

// TraceMatch matches a trace row of a node; empty members are not checked.
type TraceMatch struct {
	Node       string
	Status     string
	ErrorClass string
}
