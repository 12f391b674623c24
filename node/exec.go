package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wetel/wetel/clock"
)

// Executor runs one node. It is built once per graph from the node's config
// and shared by every run of that graph, so it must not keep per-run state.
type Executor interface {
	Execute(ctx context.Context, x *Exec) (Outcome, error)
}

// ExecutorFunc adapts a function to Executor.
type ExecutorFunc func(ctx context.Context, x *Exec) (Outcome, error)

// Execute calls f.
func (f ExecutorFunc) Execute(ctx context.Context, x *Exec) (Outcome, error) { return f(ctx, x) }

// BuildInput is what a type's Build function compiles.
type BuildInput struct {
	NodeID string
	Type   string
	Config json.RawMessage
}

// Decode unmarshals the (already validated) config into a type's own struct.
func (b BuildInput) Decode(v any) error {
	if len(b.Config) == 0 {
		return nil
	}
	if err := json.Unmarshal(b.Config, v); err != nil {
		return fmt.Errorf("node %q: decoding config: %w", b.NodeID, err)
	}
	return nil
}

// Outcome is what a node reports back for routing.
type Outcome struct {
	// Route is the value the engine routes on: the router's variable as text,
	// "true"/"false", the winning case label, or an outcome label.
	Route string
	// NoValue tells a router that its variable was unset or not a scalar, so
	// no label can match it.
	NoValue bool
	// EndSession stops the run after this node: nothing else is dispatched.
	EndSession bool
	// Pause ends the turn here: the run stops with the pause's run status,
	// and a later turn continues from the edge its type's Resume hook names.
	Pause *Pause
}

// Message is a reply a node speaks to the user.
type Message struct {
	NodeID       string `json:"-"`
	Text         string `json:"text"`
	Mood         string `json:"mood,omitempty"`
	TurnComplete bool   `json:"turnComplete"`
	// Partial marks a piece of a message still being written (a streamed
	// llm reply): published at once with isFinal false, never stored; the
	// whole message follows with Say.
	Partial bool `json:"-"`
}

// Agent is the agent whose workflow the run runs: its persona (the llm
// node's system prompt) and default model. Zero for a run with no agent.
type Agent struct {
	ID           int64
	Persona      string
	DefaultModel string
}

// Exec is the run as one dispatch sees it. The engine reuses one Exec per run,
// so executors must not keep it past Execute.
type Exec struct {
	NodeID   string
	NodeType string
	// Vars is the run's context: one map per run, read by dot path.
	Vars  map[string]any
	Mock  bool
	Clock clock.Clock
	// Reply receives what the node says; the engine sets it.
	Reply func(Message)
	// Child is set for a run dispatched by sub_agent, whose throwaway session
	// no person watches; Depth is how deeply nested that dispatch is.
	Child bool
	Depth int
	// Interrupt is closed when a newer message interrupts the turn; a node
	// that waits (a retry's backoff) stops waiting on it.
	Interrupt <-chan struct{}
	// RunID is the run's id (0 when the caller gave none).
	RunID int64
	// Deadline is the run's own deadline on Clock, which no retry outlives
	// (seed: "The run's own deadline always applies too").
	Deadline time.Time
	// Services are the outside systems the run may call; nil when none is
	// available (see Services).
	Services *Services
	// Place is where the run takes place (OnServer, Offline; zero when the
	// caller did not say), so an error can say what is missing there.
	Place Place
	// Agent is the agent the run speaks for.
	Agent Agent
	// model is the report of a model call, noted by the node that made it
	// for the engine to put on the trace row (NoteModel).
	model *ModelReport
	// call is the report of a call that succeeded after retrying, noted by
	// callout.Retry for the engine to put on the trace row. It lives here
	// rather than in Outcome: a larger Outcome costs every dispatch of every
	// node type (measured, about 25 ns), and only call nodes ever set it.
	call *CallReport
}

// NoteCall records the retries of a call that succeeded after retrying, so
// that the node's trace row still carries its failed attempts. callout.Retry
// does it itself; a call that failed reports them in its *CallError.
func (x *Exec) NoteCall(r *CallReport) { x.call = r }

// TakeCall returns the report noted during this dispatch, and forgets it.
// The engine calls it after dispatching a node whose type may retry.
func (x *Exec) TakeCall() *CallReport {
	r := x.call
	x.call = nil
	return r
}

// NoteModel records what a model call did (model, provider, tokens,
// fallbacks) for the node's trace row, whether the node then succeeds or
// fails. Any node type that calls a model may note one.
func (x *Exec) NoteModel(r *ModelReport) { x.model = r }

// TakeModel returns the model report noted during this dispatch, and
// forgets it.
func (x *Exec) TakeModel() *ModelReport {
	r := x.model
	x.model = nil
	return r
}

// Stream publishes a piece of a reply as it is written (isFinal false).
// The pieces are not part of the run's messages: the node says the whole
// text with Say when it is complete.
func (x *Exec) Stream(text string) {
	if x.Reply != nil && text != "" {
		x.Reply(Message{NodeID: x.NodeID, Text: text, Partial: true})
	}
}

// Say sends a message to the user.
func (x *Exec) Say(text, mood string) {
	if x.Reply != nil {
		x.Reply(Message{NodeID: x.NodeID, Text: text, Mood: mood})
	}
}

// Ask sends a question that ends the turn: it is always published with
// turnComplete true, whatever follows it.
func (x *Exec) Ask(text, mood string) {
	if x.Reply != nil {
		x.Reply(Message{NodeID: x.NodeID, Text: text, Mood: mood, TurnComplete: true})
	}
}

// FatalError marks an error that must fail the run even on a node with a
// failure edge (seed: "a failure to save an await_reply pause" never routes).
type FatalError struct{ Err error }

func (e *FatalError) Error() string { return e.Err.Error() }
func (e *FatalError) Unwrap() error { return e.Err }

// Fatal wraps err so the engine never routes it to a failure edge.
func Fatal(err error) error { return &FatalError{Err: err} }

// IsFatal reports whether err was marked with Fatal.
func IsFatal(err error) bool {
	var f *FatalError
	return errors.As(err, &f)
}

// Lookup reads a dot path ("orderLookup.data.0.id") from vars. Numeric
// segments index arrays. It reports false when any step is missing.
func Lookup(vars map[string]any, path string) (any, bool) {
	var cur any = vars
	for path != "" {
		seg := path
		if i := strings.IndexByte(path, '.'); i >= 0 {
			seg, path = path[:i], path[i+1:]
		} else {
			path = ""
		}
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Scalar renders a scalar context value as routing text: strings as they
// are, numbers in their shortest form, booleans as true/false. It reports
// false for nil, objects and arrays, which no edge label can equal.
func Scalar(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(t), 'f', -1, 32), true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case json.Number:
		return t.String(), true
	}
	return "", false
}
