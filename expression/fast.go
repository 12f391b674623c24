package expression

import (
	"reflect"
	"slices"

	"github.com/expr-lang/expr/ast"
)

// fastNode is a node of the fast path, a tree interpreter that evaluates
// simple programs without expr's virtual machine.
//
// Most expressions in a graph are a literal, a variable, or one or two
// comparisons or arithmetic operations on them. For those, fetching a
// machine from the pool, setting it up and guarding it with recover costs
// several times the work itself.
//
// Evaluation reports ok false whenever an operand falls outside what the
// fast path models, and the VM then evaluates the program instead, so
// results and errors stay the VM's. It cannot panic, as it asserts types
// only with comma-ok and never divides integers by zero, so it runs
// outside the recover that guards the VM, which would cost it a deferred
// call.
type fastNode struct {
	kind fastKind
	op   operator  // for fastBinary
	name string    // the variable for fastVar, the key for fastMember
	val  any       // the value of a fastConst
	x, y *fastNode // operands; x alone for unary kinds and fastMember
	// operand is set on the nodes the VM uses as operands, which it
	// dereferences: the identity on the scalars a context holds, and a
	// reason to leave anything else to the VM. Operators always give
	// scalars, so only variables and member paths check.
	operand bool
	// skipped lists variables Eval requires but evaluation may not read:
	// those y reads, for fastAnd and fastOr, as x may decide alone; for
	// fastCheck, those the optimiser removed from the tree.
	skipped []string
}

type fastKind uint8

const (
	fastConst  fastKind = iota // a literal
	fastVar                    // a root identifier
	fastMember                 // x.name on a context object
	fastNot                    // !x
	fastNeg                    // -x
	fastPlus                   // +x, the operand itself
	fastAnd                    // x && y
	fastOr                     // x || y
	fastCheck                  // x, once the variables in skipped are set
	fastBinary                 // x op y
)

// eval evaluates n as the VM would. At the top of a program, a variable
// or member path comes back as is, whatever its type, because the VM does
// not dereference a result.
func (n *fastNode) eval(vars map[string]any) (any, bool) {
	switch n.kind {
	case fastConst:
		return n.val, true
	case fastVar:
		// A missing name fails the fast path, so that Eval reports it.
		v, ok := vars[n.name]
		return v, ok && (!n.operand || scalar(v))
	case fastMember:
		v, ok := n.x.eval(vars)
		// A context object reads a missing key as nil, as expr's Fetch
		// does; nil and every other type are left to the VM, which fails
		// or fetches with reflection.
		m, isMap := v.(map[string]any)
		if !ok || !isMap {
			return nil, false
		}
		v = m[n.name]
		return v, !n.operand || scalar(v)
	case fastNot:
		v, ok := n.x.eval(vars)
		b, isBool := v.(bool)
		return !b, ok && isBool
	case fastNeg:
		v, ok := n.x.eval(vars)
		if !ok {
			return nil, false
		}
		return negate(v)
	case fastPlus:
		// The VM emits nothing for unary +: the dereferenced operand is
		// the result.
		return n.x.eval(vars)
	case fastAnd, fastOr:
		// The VM jumps over the right operand when the left one, which
		// must be a boolean or the VM fails, decides; otherwise the right
		// operand is the result, a boolean or not.
		v, ok := n.x.eval(vars)
		b, isBool := v.(bool)
		if !ok || !isBool {
			return nil, false
		}
		if b == (n.kind == fastOr) {
			return b, n.set(vars)
		}
		return n.y.eval(vars)
	case fastCheck:
		if !n.set(vars) {
			return nil, false
		}
		return n.x.eval(vars)
	case fastBinary:
		a, ok := n.x.value(vars)
		if !ok {
			return nil, false
		}
		b, ok := n.y.value(vars)
		if !ok {
			return nil, false
		}
		return binary(n.op, a, b)
	}
	return nil, false
}

// value is eval, inlined for constants, the commonest operand after
// variables.
func (n *fastNode) value(vars map[string]any) (any, bool) {
	if n.kind == fastConst {
		return n.val, true
	}
	return n.eval(vars)
}

// set reports whether every name in n.skipped is a key of vars.
func (n *fastNode) set(vars map[string]any) bool {
	for _, name := range n.skipped {
		if _, ok := vars[name]; !ok {
			return false
		}
	}
	return true
}

// fastPath translates the optimised tree of a program that needs no meter,
// or returns nil when the tree holds anything but literals, variables,
// member paths with constant keys, unary !, not, - and +, the binary
// operators of [operators], and and or: such programs always run on the
// VM.
//
// Whenever it succeeds, the result has found every variable of the
// program in the context, like the check Eval runs before the VM: it
// reads each operand it evaluates and checks the variables of those and
// and or skip.
func fastPath(n ast.Node) *fastNode {
	if v, ok := literal(n); ok {
		return &fastNode{kind: fastConst, val: v}
	}
	switch n := n.(type) {
	case *ast.IdentifierNode:
		// $env is the whole context, not a key of it.
		if n.Value == envName {
			return nil
		}
		return &fastNode{kind: fastVar, name: n.Value}
	case *ast.MemberNode:
		key, ok := n.Property.(*ast.StringNode)
		if !ok || n.Optional || n.Method {
			return nil
		}
		return node(&fastNode{kind: fastMember, name: key.Value}, fastPath(n.Node), nil)
	case *ast.UnaryNode:
		x := fastPath(n.Node)
		switch n.Operator {
		case "!", "not":
			return node(&fastNode{kind: fastNot}, x, nil)
		case "-":
			return node(&fastNode{kind: fastNeg}, x, nil)
		case "+":
			return node(&fastNode{kind: fastPlus}, x, nil)
		}
	case *ast.BinaryNode:
		x, y := fastPath(n.Left), fastPath(n.Right)
		switch n.Operator {
		case "&&", "and":
			return node(&fastNode{kind: fastAnd, skipped: y.variables()}, x, y)
		case "||", "or":
			return node(&fastNode{kind: fastOr, skipped: y.variables()}, x, y)
		}
		if op, ok := operators[n.Operator]; ok {
			return node(&fastNode{kind: fastBinary, op: op}, x, y)
		}
	}
	return nil
}

// node sets n's operands, or returns nil when a required one could not be
// translated.
func node(n, x, y *fastNode) *fastNode {
	if x == nil || (y == nil && n.kind >= fastAnd) {
		return nil
	}
	// The base of a member path is fetched from, not dereferenced.
	x.operand = n.kind != fastMember
	if y != nil {
		y.operand = true
	}
	n.x, n.y = x, y
	return n
}

// requiring makes n fail unless every name in required is a key of vars.
// Eval checks those names before running the VM, but the optimiser folds
// `x && false` to false, so the tree may no longer read them all.
func (n *fastNode) requiring(required []string) *fastNode {
	var missed []string
	for _, name := range required {
		if !slices.Contains(n.variables(), name) {
			missed = append(missed, name)
		}
	}
	if missed == nil {
		return n
	}
	return &fastNode{kind: fastCheck, x: n, skipped: missed}
}

// variables lists the variables n reads, nil for a nil n.
func (n *fastNode) variables() []string {
	if n == nil {
		return nil
	}
	if n.kind == fastVar {
		return []string{n.name}
	}
	return slices.Compact(slices.Sorted(slices.Values(append(n.x.variables(), n.y.variables()...))))
}

// literal returns the value the compiler pushes for a literal node. It
// only accepts the types the compiler pushes unchanged: an integer the
// checker typed as something other than int, for one, is pushed
// converted, so it is left to the VM.
func literal(n ast.Node) (any, bool) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		if t := n.Type(); t == nil || t.Kind() == reflect.Int {
			return n.Value, true
		}
	case *ast.FloatNode:
		if t := n.Type(); t == nil || t.Kind() != reflect.Float32 {
			return n.Value, true
		}
	case *ast.StringNode:
		return n.Value, true
	case *ast.BoolNode:
		return n.Value, true
	case *ast.NilNode:
		return nil, true
	case *ast.ConstantNode:
		// The optimiser folds some subtrees into constants of any type;
		// only scalars are pushed as values the other paths model.
		if scalar(n.Value) {
			return n.Value, true
		}
	}
	return nil, false
}
