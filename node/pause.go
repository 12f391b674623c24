package node

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wetel/wetel/vocab"
)

// Pause is what a node that ends the turn to wait leaves behind: a wait of
// a kind with the kind's own state, stored until its input arrives. The
// engine stops the run with RunStatus; the store keeps Kind, ResumeOn,
// State, ExpiresAt and Snapshot; a later turn hands State back to the
// kind's Resume hook.
type Pause struct {
	// Kind names the node type whose Resume hook continues the wait; the
	// engine sets it to the pausing node's type when it is empty.
	Kind string
	// ResumeOn says what resumes it: vocab.ResumeOnReply (the session's
	// next message; one such wait per session) or vocab.ResumeOnDecision.
	ResumeOn string
	// RunStatus is the status the run stops with: vocab.RunAwaitingInput
	// when empty, or vocab.RunAwaitingApproval.
	RunStatus string
	// State is the kind's own JSON: what its Resume hook needs, fixed when
	// the run paused (seed 000: the options are "stored server-side" and
	// matching "reads only that stored list").
	State json.RawMessage
	// ExpiresAt is when the wait lapses; the zero value never does.
	ExpiresAt time.Time
	// Snapshot is the run's context as it resumes: its own variables,
	// without the turn facts the next turn supplies fresh (see Carried).
	Snapshot json.RawMessage
}

// ResumeEvent is what arrived for a wait.
type ResumeEvent int

// The inputs a wait can resume on.
const (
	// ResumeReply: the session's next message (Text).
	ResumeReply ResumeEvent = iota
	// ResumeDecision: a person decided (Decision).
	ResumeDecision
	// ResumeExpiry: the wait's expiry passed and its kind acts on it.
	ResumeExpiry
)

// Decision is a person's answer to a wait resumed by a decision.
type Decision struct {
	Approved  bool
	Note      string
	DecidedBy string
}

// ResumeInput is what a Resume hook is given: the stored state of the
// wait, the node that paused, and the input that arrived.
type ResumeInput struct {
	NodeID   string
	State    json.RawMessage
	Event    ResumeEvent
	Text     string
	Decision Decision
	Now      time.Time
}

// Resumed is how a run continues: the edge label to follow from the
// paused node, and the variables to write over the snapshot and the fresh
// turn facts (seed 000: "{ ...snapshot, ...freshTurnFacts, [saveAs]: answer }").
type Resumed struct {
	Label string
	Vars  map[string]any
	// Optional: when the node has no edge labeled Label, the turn ends
	// there, with nothing run, instead of failing as a stranded wait.
	Optional bool
	// EndSession ends the session instead of following an edge.
	EndSession bool
}

// ResumeFunc continues a paused node of a type. It runs at the start of the
// resuming turn, never on the engine's dispatch path, and must not call
// out: the resumed run's nodes do that.
type ResumeFunc func(ctx context.Context, in ResumeInput) (Resumed, error)

// MaxSnapshotBytes caps the context carried across a pause. Seed 000:
// "capped at 256 KB serialized. A graph carrying more than that fails the
// node with a named error rather than silently truncating".
const MaxSnapshotBytes = 256 << 10

// ErrSnapshotTooLarge is wrapped by Carried's error for a context over
// MaxSnapshotBytes; the pausing type names it in its own words.
var ErrSnapshotTooLarge = fmt.Errorf("the context to carry across the pause exceeds %d bytes (256 KB)", MaxSnapshotBytes)

// Carried serialises what a paused run carries: every variable except the
// turn facts, which the resuming turn supplies fresh (seed 000: "Not
// carried ... userMessage, conversationHistory, sessionId/tenantId/agentId,
// turn counters, and the per-turn attachment/channel facts"). It returns
// the size with ErrSnapshotTooLarge when the result is over the cap.
func Carried(vars map[string]any) (json.RawMessage, int, error) {
	carried := make(map[string]any, len(vars))
	for k, v := range vars {
		carried[k] = v
	}
	for _, f := range vocab.TurnFacts {
		delete(carried, f)
	}
	b, err := json.Marshal(carried)
	if err != nil {
		return nil, 0, fmt.Errorf("the context cannot be saved: %w", err)
	}
	if len(b) > MaxSnapshotBytes {
		return nil, len(b), ErrSnapshotTooLarge
	}
	return b, len(b), nil
}
