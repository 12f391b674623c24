package expression

// This file gives the fast path expr's runtime semantics for the operand
// types a context holds: int, float64, string, bool and nil. Every other
// combination reports ok false so that the VM decides, including all those
// where the VM fails: the VM then produces the error.

// operator names a binary operator the fast path evaluates itself.
type operator uint8

const (
	opAdd operator = iota
	opSub
	opMul
	opDiv
	opMod
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
)

var operators = map[string]operator{
	"+": opAdd, "-": opSub, "*": opMul, "/": opDiv, "%": opMod,
	"==": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe,
}

// scalar reports whether v has one of the types the fast path models.
func scalar(v any) bool {
	switch v.(type) {
	case nil, bool, int, float64, string:
		return true
	}
	return false
}

// binary applies op to a and b as expr's runtime does. As there, an int
// meeting a float64 is converted to float64, and int arithmetic wraps.
func binary(op operator, a, b any) (any, bool) {
	switch x := a.(type) {
	case int:
		switch y := b.(type) {
		case int:
			return ints(op, x, y)
		case float64:
			return floats(op, float64(x), y)
		}
	case float64:
		switch y := b.(type) {
		case int:
			return floats(op, x, float64(y))
		case float64:
			return floats(op, x, y)
		}
	case string:
		if y, ok := b.(string); ok {
			return strs(op, x, y)
		}
	case bool:
		if y, ok := b.(bool); ok && (op == opEq || op == opNe) {
			return (x == y) == (op == opEq), true
		}
	}
	if (op == opEq || op == opNe) && scalar(a) && scalar(b) {
		// Scalars of different kinds, or nils: expr's Equal ends in
		// IsNil(a) && IsNil(b) or reflect.DeepEqual, which only holds
		// for nil against nil here.
		return (a == nil && b == nil) == (op == opEq), true
	}
	return nil, false
}

func ints(op operator, x, y int) (any, bool) {
	switch op {
	case opAdd:
		return x + y, true
	case opSub:
		return x - y, true
	case opMul:
		return x * y, true
	case opDiv:
		// expr's / always divides as float64.
		return float64(x) / float64(y), true
	case opMod:
		if y == 0 {
			// The VM recovers Go's division panic into its error.
			return nil, false
		}
		return x % y, true
	}
	return compare(op, x, y)
}

func floats(op operator, x, y float64) (any, bool) {
	switch op {
	case opAdd:
		return x + y, true
	case opSub:
		return x - y, true
	case opMul:
		return x * y, true
	case opDiv:
		return x / y, true
	case opMod:
		// expr's % is defined on integers only.
		return nil, false
	}
	return compare(op, x, y)
}

func strs(op operator, x, y string) (any, bool) {
	if op == opAdd {
		return x + y, true
	}
	return compare(op, x, y)
}

// compare applies a comparison; arithmetic operators reaching it are ones
// expr does not define on the type, such as - on strings.
func compare[T int | float64 | string](op operator, x, y T) (any, bool) {
	switch op {
	case opEq:
		return x == y, true
	case opNe:
		return x != y, true
	case opLt:
		return x < y, true
	case opLe:
		return x <= y, true
	case opGt:
		return x > y, true
	case opGe:
		return x >= y, true
	}
	return nil, false
}

// negate is expr's unary minus on the numbers the fast path models.
func negate(v any) (any, bool) {
	switch x := v.(type) {
	case int:
		return -x, true
	case float64:
		return -x, true
	}
	return nil, false
}
