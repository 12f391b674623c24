package node

import (
	"fmt"
	"strconv"
	"time"
)

// Rules are a node type's own checks on a node in its graph: the edge labels
// it routes on and what saving, publishing and the diagnostics say about it,
// the way a Benthos component carries its lint rules. The graph package runs
// them without knowing the type; they never run on the engine's dispatch path.
// Every hook is optional.
type Rules struct {
	// Labels returns the outgoing edge labels the node routes on with its
	// config, for a type whose labels depend on it (a switch's cases; an
	// await_reply's unanswered only in options mode). Unset, they are the
	// spec's Outcomes. A label the node routes on is never mistaken for a
	// failure route.
	Labels func(n *View) []string
	// AnyLabel types route on any label (router), so success and failure
	// are ordinary values there.
	AnyLabel bool
	// NoRetry says why this node's config rules out a retry policy the type
	// otherwise allows, or "" when it does not.
	NoRetry func(n *View) string
	// Idempotent reports whether the node's request is idempotent by its
	// config alone (a GET, an Idempotency-Key header), so a retry may resend
	// it after a timeout without retry.idempotent.
	Idempotent func(n *View) bool
	// Save reports problems that refuse a draft save, and publishing with it.
	Save func(n *View) []Problem
	// Publish reports problems that refuse publishing, beyond the save ones.
	Publish func(n *View) []Problem
	// Edge gives advice on one outgoing edge (never loop_exhausted), after
	// the checks every type shares have found nothing to say about it.
	Edge func(n *View, e Edge) []Problem
	// Diagnose gives advice on the node after its edges: missing branches,
	// options the node will ignore or clamp.
	Diagnose func(n *View) []Problem
}

// View is one node as its type's rules see it. Hooks must not modify it.
type View struct {
	ID   string
	Type string
	// Config is the decoded config object, never nil.
	Config map[string]any
	// Out are the node's outgoing edges in document order, which is the
	// order the engine follows them in.
	Out []Edge
	// Graph looks up the other nodes of the graph.
	Graph Nodes
}

// Edge is an outgoing edge as a rule sees it.
type Edge struct {
	ID     string
	Target string
	Label  string
}

// Nodes finds the nodes of a graph by id, for a rule that follows a
// reference to another node.
type Nodes interface {
	// Node returns the type and decoded config of the first node with the
	// id; config is nil when it is not a JSON object.
	Node(id string) (typ string, config map[string]any, ok bool)
	// Out returns the outgoing edges of the node with the id, in document
	// order, so a rule can follow paths through the graph.
	Out(id string) []Edge
	// Branches reports whether the node with the id routes on a value it
	// works out (a condition, switch or router): a gate on a path.
	Branches(id string) bool
}

// Problem is what a rule reports about its node. The graph package adds the
// node's id; Message is the whole sentence, in the seeds' wording.
type Problem struct {
	Code    string
	Field   string // a config field, when the problem is about one
	EdgeID  string // an edge, when the problem is about one
	Message string
}

// Problemf builds a Problem with a formatted message.
func Problemf(code, field, format string, args ...any) Problem {
	return Problem{Code: code, Field: field, Message: fmt.Sprintf(format, args...)}
}

// CountLabel counts the node's outgoing edges labeled label.
func (n *View) CountLabel(label string) int {
	c := 0
	for _, e := range n.Out {
		if e.Label == label {
			c++
		}
	}
	return c
}

// HasLabel reports whether the node has an outgoing edge labeled label.
func (n *View) HasLabel(label string) bool { return n.CountLabel(label) > 0 }

// Has reports whether the config sets key.
func (n *View) Has(key string) bool {
	_, ok := n.Config[key]
	return ok
}

// String reads a string config field; "" when it is unset or not a string.
func (n *View) String(key string) string {
	s, _ := n.Config[key].(string)
	return s
}

// Bool reads a boolean config field; false when it is unset or not a boolean.
func (n *View) Bool(key string) bool {
	b, _ := n.Config[key].(bool)
	return b
}

// Ignored reports a config field the node will not act on, in the words of
// the IGNORED_OPTION diagnostic.
func (n *View) Ignored(field, why string) Problem {
	return Problemf(DiagIgnoredOption, field, "Node %q: %s is ignored: %s.", n.ID, field, why)
}

// MaxVisits is the node's maxVisits (see MaxVisitsOf).
func (n *View) MaxVisits() (visits int, explicit bool) { return MaxVisitsOf(n.Config) }

// ClampedExpiry reports a wait's expiry field above the ceiling the node
// clamps it to (seed 000: "clamped to a hard ceiling of 7 days").
func (n *View) ClampedExpiry(field string, ceiling time.Duration) []Problem {
	secs, ok := n.Config[field].(float64)
	if !ok || secs <= ceiling.Seconds() {
		return nil
	}
	return []Problem{Problemf(DiagIgnoredOption, field, "Node %q: %s %s is clamped to the ceiling of %d days (%d seconds).",
		n.ID, field, strconv.FormatFloat(secs, 'f', -1, 64), int(ceiling/(24*time.Hour)), int(ceiling/time.Second))}
}

// RoutesOn returns the labels a node of type s routes on with its config:
// the Labels hook's answer, or else the spec's Outcomes.
func (s *Spec) RoutesOn(n *View) []string {
	if s.Rules.Labels != nil {
		return s.Rules.Labels(n)
	}
	return s.Outcomes
}
