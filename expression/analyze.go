package expression

import (
	"fmt"
	"maps"
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
)

// envName is expr's name for the whole context. Reading through it
// ($env["x"], "x" in $env) is the explicit way to tolerate absent keys, so
// it is never a variable itself.
const envName = "$env"

// analysis is what Compile learns from the syntax tree before type checking.
type analysis struct {
	// reads maps each root identifier to whether some read of it is
	// unguarded, that is, outside the path on the left of a ??.
	reads map[string]bool
	// heavy is set by closures and let, the only constructs that evaluate
	// a node more than once or reuse a value, so the only ones that can
	// multiply work beyond the size of the source and its inputs.
	heavy bool
	// builds is set when the expression calls a metered builtin.
	builds bool
}

// analyze walks the parsed tree. It refuses calls of anything but builtins:
// context values are JSON, so such a call could only fail at run time.
func analyze(root ast.Node, src file.Source) (*analysis, error) {
	a := &analysis{reads: map[string]bool{}}
	if err := a.walk(root, nil); err != nil {
		return nil, err.Bind(src)
	}
	return a, nil
}

func (a *analysis) rewrite() bool {
	return a.heavy || a.builds
}

func (a *analysis) variables() []string {
	// Non-nil so that an expression without variables reports an empty
	// list rather than null once marshalled.
	return append([]string{}, slices.Sorted(maps.Keys(a.reads))...)
}

func (a *analysis) required() []string {
	var names []string
	for name, unguarded := range a.reads {
		if unguarded {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func (a *analysis) read(name string, scope []string, guarded bool) {
	if name == envName || slices.Contains(scope, name) {
		return
	}
	a.reads[name] = a.reads[name] || !guarded
}

// walk records reads in n; scope holds the let names visible there.
func (a *analysis) walk(n ast.Node, scope []string) *file.Error {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		a.read(n.Value, scope, false)
	case *ast.BinaryNode:
		if n.Operator == "??" {
			if err := a.guard(n.Left, scope); err != nil {
				return err
			}
			return a.walk(n.Right, scope)
		}
		return a.all(scope, n.Left, n.Right)
	case *ast.UnaryNode:
		return a.walk(n.Node, scope)
	case *ast.ChainNode:
		return a.walk(n.Node, scope)
	case *ast.MemberNode:
		return a.all(scope, n.Node, n.Property)
	case *ast.SliceNode:
		return a.all(scope, n.Node, n.From, n.To)
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			return callError(n, id.Value)
		}
		return a.all(scope, append([]ast.Node{n.Callee}, n.Arguments...)...)
	case *ast.BuiltinNode:
		if _, ok := meteredFunctions[n.Name]; ok {
			a.builds = true
		}
		return a.all(scope, n.Arguments...)
	case *ast.PredicateNode:
		a.heavy = true
		return a.walk(n.Node, scope)
	case *ast.VariableDeclaratorNode:
		a.heavy = true
		if err := a.walk(n.Value, scope); err != nil {
			return err
		}
		return a.walk(n.Expr, append(scope[:len(scope):len(scope)], n.Name))
	case *ast.SequenceNode:
		return a.all(scope, n.Nodes...)
	case *ast.ConditionalNode:
		return a.all(scope, n.Cond, n.Exp1, n.Exp2)
	case *ast.ArrayNode:
		return a.all(scope, n.Nodes...)
	case *ast.MapNode:
		return a.all(scope, n.Pairs...)
	case *ast.PairNode:
		return a.all(scope, n.Key, n.Value)
	}
	return nil
}

// guard walks the left operand of ??. Only a root that may really be
// absent without breaking the path is exempt from the presence check: a
// bare identifier, or the root of a path whose first step is ?. (x?.y,
// x?.y.z, x?.[0]), since expr turns those into nil when x is nil. In x.y
// or x[0] a nil x is an error, so a missing x had better be reported as
// such; the same goes for names elsewhere, as i in x?.[i] or x in
// (x + 1) ?? 0.
func (a *analysis) guard(n ast.Node, scope []string) *file.Error {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		a.read(n.Value, scope, true)
		return nil
	case *ast.ChainNode:
		if optionalRoot(n.Node) {
			return a.path(n.Node, scope)
		}
	case *ast.BinaryNode:
		if n.Operator == "??" {
			if err := a.guard(n.Left, scope); err != nil {
				return err
			}
			return a.guard(n.Right, scope)
		}
	}
	return a.walk(n, scope)
}

// path walks a member chain, reading its root as guarded and everything
// else as usual.
func (a *analysis) path(n ast.Node, scope []string) *file.Error {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		a.read(n.Value, scope, true)
		return nil
	case *ast.MemberNode:
		if err := a.path(n.Node, scope); err != nil {
			return err
		}
		return a.walk(n.Property, scope)
	case *ast.SliceNode:
		if err := a.path(n.Node, scope); err != nil {
			return err
		}
		return a.all(scope, n.From, n.To)
	}
	return a.walk(n, scope)
}

// optionalRoot reports whether n is a chain of member accesses and slices
// on an identifier whose first access is ?.
func optionalRoot(n ast.Node) bool {
	for {
		switch m := n.(type) {
		case *ast.MemberNode:
			if _, ok := m.Node.(*ast.IdentifierNode); ok {
				return m.Optional
			}
			n = m.Node
		case *ast.SliceNode:
			if _, ok := m.Node.(*ast.IdentifierNode); ok {
				return false
			}
			n = m.Node
		default:
			return false
		}
	}
}

func (a *analysis) all(scope []string, nodes ...ast.Node) *file.Error {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		if err := a.walk(n, scope); err != nil {
			return err
		}
	}
	return nil
}

func callError(n *ast.CallNode, name string) *file.Error {
	msg := fmt.Sprintf("unknown function %s", name)
	if why, ok := disabledBuiltins[name]; ok {
		msg = fmt.Sprintf("%s() is not available: %s", name, why)
	}
	return &file.Error{Location: n.Location(), Message: msg}
}
