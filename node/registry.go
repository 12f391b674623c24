package node

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Registry maps a node type name to its spec. It is a value, so a test can
// build its own; Default is the one the binary uses.
type Registry struct {
	mu    sync.RWMutex
	specs map[string]*Spec
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{specs: map[string]*Spec{}} }

// Default is the registry node packages add themselves to in init().
var Default = NewRegistry()

// Register adds a node type to the default registry; node packages call it
// from init(), so a duplicate or malformed spec is a programming error.
func Register(s *Spec) {
	if err := Default.Add(s); err != nil {
		panic(err)
	}
}

// Add adds a node type. The shared fields its capabilities allow (maxVisits
// always; mockResponse and mockError; retry) are appended to its fields.
func (r *Registry) Add(s *Spec) error {
	if s.Type == "" || strings.ToLower(s.Type) != s.Type {
		return fmt.Errorf("node type %q: names are lowercase and not empty", s.Type)
	}
	if s.Build == nil && s.Runs != 0 {
		return fmt.Errorf("node type %q: no Build function, though it runs %s", s.Type, s.Runs.Name())
	}
	if s.Pauses != (s.Resume != nil) {
		return fmt.Errorf("node type %q: a type that pauses has a Resume hook, and only such a type", s.Type)
	}
	if s.Mockable && s.MockOutput == "" {
		return fmt.Errorf("node type %q: mockable types name the field a mockResponse lands in", s.Type)
	}
	for _, f := range s.Fields {
		switch f.Name {
		case FieldMaxVisits, FieldMockResponse, FieldMockError, FieldRetry:
			return fmt.Errorf("node type %q: field %q is shared; declare the capability instead", s.Type, f.Name)
		}
	}
	cp := *s
	cp.Fields = append(append([]Field(nil), s.Fields...), MaxVisitsField)
	if s.Mockable {
		cp.Fields = append(cp.Fields, MockResponseField, MockErrorField)
	}
	if s.Retry {
		cp.Fields = append(cp.Fields, RetryField)
	}
	if cp.Build == nil {
		cp.Build = notAvailable(&cp)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.specs[s.Type]; dup {
		return fmt.Errorf("node type %q registered twice", s.Type)
	}
	r.specs[s.Type] = &cp
	return nil
}

// Lookup returns the spec of a node type; type names are compared exactly.
func (r *Registry) Lookup(typ string) (*Spec, bool) {
	r.mu.RLock()
	s, ok := r.specs[typ]
	r.mu.RUnlock()
	return s, ok
}

// Types returns the registered type names, sorted.
func (r *Registry) Types() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.specs))
	for t := range r.specs {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Clone returns an independent copy, so a test can add or replace types
// without touching the default.
func (r *Registry) Clone() *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c := NewRegistry()
	for t, s := range r.specs {
		c.specs[t] = s
	}
	return c
}

// Replace swaps in a spec for an existing or new type (tests use it to stub a
// type's executor). Shared fields are added as by Add.
func (r *Registry) Replace(s *Spec) error {
	r.mu.Lock()
	delete(r.specs, s.Type)
	r.mu.Unlock()
	return r.Add(s)
}

// Names lists types with a capability, for messages such as "only allowed on
// tool, action and webhook nodes".
func (r *Registry) Names(has func(*Spec) bool) []string {
	var out []string
	for _, t := range r.Types() {
		s, _ := r.Lookup(t)
		if has(s) {
			out = append(out, t)
		}
	}
	return out
}

// JoinNames renders ["a","b","c"] as "a, b and c".
func JoinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
