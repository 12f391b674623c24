// Package expression compiles and evaluates the small expressions that
// condition, switch and set_variable nodes use to read a run's context, such
// as `amount > 1000`, `tier == "gold"` or `a?.b ?? 0`.
//
// The language is expr-lang's (github.com/expr-lang/expr): comparisons,
// and/or/not, arithmetic, string concatenation with +, in, dot paths,
// indexes, ?., ??, the ternary operator, let, closures such as
// filter(items, .price > 10) and the expr builtins, with these differences:
//
//   - A root identifier the expression reads must be a key of the context;
//     see [Program.Eval] for the exact rule and its ?? exemption.
//   - now() is not available, because a run must give the same result when
//     it is replayed; date(), duration() and timezone() stay because they
//     only depend on their arguments.
//   - keys(), values() and toPairs() return entries ordered by key, for the
//     same reason.
//   - Only builtins can be called; calling a context value is a compile
//     error, since JSON values are never functions.
//   - Builtin names are free to use as variable names: `count > 3` reads the
//     context key "count".
//
// Every evaluation is bounded: sources are limited to [MaxSourceBytes] and
// [MaxNodes], ranges, list building and loop iterations share the
// [MemoryBudget], and builtins that build strings or lists from their input
// share [MaxBuiltBytes].
package expression

import (
	"slices"

	"github.com/expr-lang/expr/vm"
)

// MaxSourceBytes is the longest source Compile accepts.
const MaxSourceBytes = 2048

// MaxNodes is the largest syntax tree Compile accepts.
const MaxNodes = 256

// MemoryBudget is the evaluation budget expr's virtual machine enforces, in
// its own units: one per element of a range, list or map literal built, and
// one per element each time a closure builtin (map, filter, all, reduce...)
// walks a collection. It keeps `1..100000000` or nested loops from eating
// memory and CPU.
const MemoryBudget = 100_000

// MaxBuiltBytes bounds, in approximate bytes, what the builtins that copy or
// multiply their input (repeat, replace, join, toJSON, string, upper,
// split...) may build. A single call may never build more; expressions with
// closures or let share this amount across all such calls and string
// concatenations, since those are the only ways to repeat work.
const MaxBuiltBytes = 1 << 20

// Program is a compiled, side-effect-free expression. Safe for concurrent
// use.
type Program struct {
	source   string
	program  *vm.Program
	vars     []string // every root identifier read, sorted
	required []string // the subset that must be set at Eval time
	metered  bool     // needs a per-evaluation meter for built bytes
}

// Source returns the source the program was compiled from.
func (p *Program) Source() string {
	return p.source
}

// Variables returns the root identifiers the expression reads from the
// context, sorted and deduplicated: "a?.b ?? 0" gives ["a"] and
// "len(items) > x.y" gives ["items", "x"]. Builtin names, let-bound names,
// closure pointers (#, .field) and $env are not variables.
func (p *Program) Variables() []string {
	return slices.Clone(p.vars)
}

// Compile compiles src. Results are cached by source, so compiling the same
// graph twice costs a map lookup; the returned Program is shared and must
// not be modified.
func Compile(src string) (*Program, error) {
	if p := programs.get(src); p != nil {
		return p, nil
	}
	p, err := compile(src)
	if err != nil {
		return nil, err
	}
	return programs.put(src, p), nil
}
