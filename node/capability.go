package node

import (
	"fmt"

	"github.com/wetel/wetel/failure"
)

// Key names one capability a run's Services may hold (the guarded HTTP
// client, the workspace's MCP connectors, a model client, a store) and the
// type it has. The package that defines the capability declares its key, so
// this package never imports what the capability is made of: node stays a
// contract that graph checkers can link without HTTP or MCP machinery, and a
// node type may need a capability built from packages that themselves
// import node types (sub_agent's child sessions need turns) without a cycle.
// Two keys are the same capability only if one was copied from the other.
type Key[T any] struct{ id *keyID }

type keyID struct{ name string }

// NewKey declares a capability. name says what it is in a phrase, for
// messages and debugging ("outbound HTTP client"). Declare each key once,
// in a package-level variable.
func NewKey[T any](name string) Key[T] { return Key[T]{id: &keyID{name: name}} }

// String returns the key's name.
func (k Key[T]) String() string {
	if k.id == nil {
		return "unnamed capability"
	}
	return k.id.name
}

// Services are the outside systems the nodes of one run may call, each
// under its Key. The engine hands the same *Services to every dispatch of a
// run (Exec.Services) and never looks inside: only the nodes that need a
// capability look it up, with Key.Get. A nil *Services, or a capability that was
// never provided, means it is not available where the run takes place: a
// node that needs it fails with an UNKNOWN error saying what is missing
// (Unavailable), never a panic.
//
// The zero value holds nothing. Provide every capability before the first
// run uses the Services; from then on Get is safe for concurrent use, and
// one *Services may serve many runs at once.
type Services struct {
	caps map[*keyID]any
}

// Provision is one capability for NewServices; see Key.With.
type Provision struct {
	id *keyID
	v  any
}

// With pairs v with the key, for NewServices. (The lookup and provision
// helpers are methods of Key rather than generic functions so that T comes
// from the key: a value of a type that implements an interface capability
// needs no explicit type argument.)
func (k Key[T]) With(v T) Provision { return Provision{id: k.id, v: v} }

// NewServices returns Services holding the capabilities given.
func NewServices(ps ...Provision) *Services {
	s := &Services{caps: make(map[*keyID]any, len(ps))}
	for _, p := range ps {
		s.set(p.id, p.v)
	}
	return s
}

// Provide makes v the capability under k in s, replacing what was there.
// A nil interface value removes it.
func (k Key[T]) Provide(s *Services, v T) { s.set(k.id, v) }

func (s *Services) set(id *keyID, v any) {
	if v == nil {
		delete(s.caps, id)
		return
	}
	if s.caps == nil {
		s.caps = map[*keyID]any{}
	}
	s.caps[id] = v
}

// Get returns the capability under k in s. ok is false when s is nil or
// holds nothing under k. A capability provided as a nil pointer is
// returned as such, with ok true: callers that take pointers check for nil
// themselves.
func (k Key[T]) Get(s *Services) (v T, ok bool) {
	if s == nil {
		return v, false
	}
	// The only values under k.id are T's, put there by With and Provide.
	v, ok = s.caps[k.id].(T)
	return v, ok
}

// Unavailable is the error of a node whose capability is missing from the
// run's Services: what, in a phrase, says what is missing and what to do.
func Unavailable(nodeType, nodeID, what string) error {
	return &failure.Error{Code: failure.Unknown, Message: fmt.Sprintf("%s node %q: %s", nodeType, nodeID, what)}
}
