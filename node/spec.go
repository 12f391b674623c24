// Package node declares what a node type is: its spec (config fields, routing,
// capabilities), the registry that maps a type name to its spec, and the
// contract between the engine and a type's executor. One package per node type
// under node/<type>/ registers itself here; the engine loop never names a type.
package node

import "encoding/json"

// Kind is the JSON type of a config field.
type Kind string

// The kinds a config field can have.
const (
	KindString  Kind = "string"
	KindInteger Kind = "integer"
	KindNumber  Kind = "number"
	KindBoolean Kind = "boolean"
	KindObject  Kind = "object"
	KindArray   Kind = "array"
	KindAny     Kind = "any"
)

// Format says how a string field is read, so the save checks can compile it
// and the docs can say what it holds.
type Format string

// The string formats the save checks understand.
const (
	FormatPlain        Format = ""
	FormatTemplate     Format = "template"      // Handlebars chat text
	FormatJSONTemplate Format = "json-template" // a JSON body whose strings are templates
	FormatExpression   Format = "expression"    // an expression (condition, switch, set_variable)
	FormatVariable     Format = "variable"      // names a context variable the node writes
	FormatPath         Format = "path"          // a dot path the node reads
	FormatNodeID       Format = "node-id"       // names another node of the graph, which the node may continue at
)

// Field describes one config field. The JSON Schema served by nodeConfigSchema,
// the save checks and the reference pages are all derived from it.
type Field struct {
	Name        string
	Kind        Kind
	Format      Format
	Required    bool
	Default     any
	Description string
	Enum        []string
	Min, Max    *float64
	MinLength   int
	MaxLength   int
	MinItems    int
	MaxItems    int
	Items       *Field  // element of an array
	Fields      []Field // properties of an object; unknown properties are refused
	// Values, for an object with free-form keys (headers), describes each value.
	Values *Field
}

// Routing says how the engine chooses the edges to follow after a node runs.
type Routing int

// The routing modes. Each is implemented once, in the engine.
const (
	// RouteAll follows every outgoing edge whatever its label (except
	// loop_exhausted), or success/failure when the type allows failure edges
	// and the node has either label.
	RouteAll Routing = iota
	// RouteValue follows the edges whose label equals the outcome by plain
	// string equality, else the node's defaultTarget (router).
	RouteValue
	// RouteBool follows the edge labeled exactly 'true' or 'false' (condition).
	RouteBool
	// RouteCase follows the edge labeled with the winning case or 'default' (switch).
	RouteCase
	// RouteOutcome follows the edge labeled with the node's outcome
	// (await_reply answered/unanswered, approval approved/rejected/expired).
	RouteOutcome
)

// Spec declares a node type.
type Spec struct {
	Type        string
	Summary     string
	Description string
	Fields      []Field
	Routing     Routing
	// Outcomes are the edge labels a RouteOutcome node may take.
	Outcomes []string
	// Mockable types may carry mockResponse and mockError (seed: tool, action,
	// webhook, llm, sub_agent and pdf_export).
	Mockable bool
	// MockOutput is the config field naming the variable a mockResponse lands in.
	MockOutput string
	// FailureEdges types follow success/failure edges instead of failing the run.
	FailureEdges bool
	// Retry types may carry a retry policy (seed: tool, action, webhook).
	Retry bool
	// Pauses types end the turn and continue in a later run (await_reply,
	// approval), so a loop through one is bounded by a person, not maxVisits.
	Pauses bool
	// Resume continues a paused node of the type from its stored state and
	// what arrived (a reply, a decision, an expiry); required when Pauses.
	Resume ResumeFunc
	// Entry is the type every run that is not a resume begins at (start); a
	// graph needs exactly one node of it.
	Entry bool
	// Runs are the places the type does its real work. Empty means mock mode
	// only (or nowhere, for a type that is not Mockable): the type may then
	// leave Build unset, and every run of it fails saying so.
	Runs Place
	// Rules are the type's own edge-label rules, save and publish checks and
	// diagnostics (see Rules).
	Rules Rules
	// Examples are sample configs for the docs and the schema.
	Examples []json.RawMessage
	// Check runs type-specific save checks on a decoded config (for rules one
	// field cannot express, such as "exactly one of value, from, expression").
	Check func(cfg map[string]any) []FieldError
	// Build compiles a validated config into an executor, once per graph.
	// It is only optional when Runs is empty.
	Build func(b BuildInput) (Executor, error)
}

// FieldError is a config problem found by the save checks. Path is the field's
// dot path inside config ("retry.delayMs", "assignments[2].var").
type FieldError struct {
	Path string
	Rule string
	// Kind is FieldUnknown or FieldReserved when the rule is one of those, so
	// callers can give the problem its own code without reading the text.
	Kind string
}

// FieldError kinds.
const (
	FieldUnknown  = "unknown"
	FieldReserved = "reserved"
)

func (e FieldError) Error() string {
	if e.Path == "" {
		return e.Rule
	}
	return e.Path + ": " + e.Rule
}

// Field returns the spec of the named top-level config field.
func (s *Spec) Field(name string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Float is a helper for Min/Max in spec literals.
func Float(v float64) *float64 { return &v }

// Examples turns JSON texts into spec examples.
func Examples(configs ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(configs))
	for i, c := range configs {
		out[i] = json.RawMessage(c)
	}
	return out
}
