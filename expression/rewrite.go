package expression

import "github.com/expr-lang/expr/ast"

// Names the rewritten tree uses for things the source cannot name: a NUL
// byte never appears in an identifier, so they cannot collide with context
// keys or be called by hand.
const (
	meterName = "\x00meter" // the evaluation's *meter, in the env of heavy programs
	varsName  = "\x00vars"  // the caller's context, standing in for $env there
	addName   = "\x00+"     // metered string concatenation
	stepName  = "\x00loop"  // iteration counter around closure bodies
)

// hiddenName is the function name a metered builtin is registered under.
func hiddenName(builtinName string) string {
	return "\x00" + builtinName
}

// rewrite routes metered builtins through their wrappers and, in heavy
// expressions, + and every closure body as well. The wrappers need the
// evaluation's meter, which only the env can carry, so heavy expressions
// are evaluated against a copy of the context holding the meter; $env is
// redirected to the caller's map so it still shows exactly the context.
func rewrite(root *ast.Node, an *analysis) {
	ast.Walk(root, &rewriter{heavy: an.heavy})
}

type rewriter struct {
	heavy bool
}

// Visit runs after a node's children have been visited, so the arguments
// moved into a new call are already rewritten.
func (r *rewriter) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.BuiltinNode:
		if _, ok := meteredFunctions[n.Name]; ok {
			r.call(node, hiddenName(n.Name), n.Arguments...)
		}
	case *ast.BinaryNode:
		if r.heavy && n.Operator == "+" {
			r.call(node, addName, n.Left, n.Right)
		}
	case *ast.PredicateNode:
		r.call(&n.Node, stepName, n.Node)
	case *ast.IdentifierNode:
		if r.heavy && n.Value == envName {
			ast.Patch(node, &ast.IdentifierNode{Value: varsName})
		}
	}
}

func (r *rewriter) call(node *ast.Node, name string, args ...ast.Node) {
	loc := (*node).Location()
	var m ast.Node = &ast.NilNode{}
	if r.heavy {
		m = &ast.IdentifierNode{Value: meterName}
	}
	m.SetLocation(loc)
	callee := &ast.IdentifierNode{Value: name}
	callee.SetLocation(loc)
	ast.Patch(node, &ast.CallNode{
		Callee:    callee,
		Arguments: append([]ast.Node{m}, args...),
	})
}
