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
//     only depend on their arguments (and the host's time zone database).
//   - keys(), values() and toPairs() return entries ordered by key, for the
//     same reason.
//   - Only builtins can be called; calling a context value is a compile
//     error, since JSON values are never functions.
//   - Builtin names are free to use as variable names: `count > 3` reads the
//     context key "count".
//   - $env is the context itself: `$env["x"]` and `"x" in $env` read it
//     without the presence check.
//
// Every evaluation is bounded: sources are limited to [MaxSourceBytes] and
// [MaxNodes], ranges and list building to [MemoryBudget], loops to
// [MaxIterations], and builtins that build strings or lists from their input
// are held to [MaxBuiltBytes] per call and [BuildBudget] in total. What the
// limits cannot see is the size of the context itself: a builtin or
// operator scanning a large context string inside a loop costs that scan
// on each of up to MaxIterations runs, so contexts should stay small.
package expression

import (
	"slices"
	"sync"

	"github.com/expr-lang/expr/vm"
)

// MaxSourceBytes is the longest source Compile accepts.
const MaxSourceBytes = 2048

// MaxNodes is the largest syntax tree Compile accepts.
const MaxNodes = 256

// MemoryBudget is the budget expr's virtual machine enforces during one
// evaluation, in its own units: one per element of each range, list or map
// it builds. It stops `1..100000000` before anything is allocated.
const MemoryBudget = 100_000

// MaxIterations bounds how many times, in total, the bodies of closure
// builtins (map, filter, all, any, count, reduce, sortBy...) may run during
// one evaluation, so nested loops over context lists cannot spin for
// minutes.
const MaxIterations = 100_000

// MaxBuiltBytes bounds, in approximate bytes, the string or list a single
// call may build with the builtins that copy or multiply their input
// (repeat, replace, join, toJSON, string, upper, split...), or with + in
// expressions that have closures or let.
const MaxBuiltBytes = 1 << 20

// BuildBudget bounds the bytes the calls and concatenations limited by
// MaxBuiltBytes may build in total during one evaluation of an expression
// with closures or let, the only expressions
// that can repeat a call or reuse its result. It counts intermediate
// strings too, so building a long string by repeated + in reduce spends it
// quadratically; join(map(...)) does not.
const BuildBudget = 16 << 20

// Program is a compiled, side-effect-free expression. Safe for concurrent
// use.
type Program struct {
	source   string
	program  *vm.Program
	vars     []string  // every root identifier read, sorted
	required []string  // the subset that must be set at Eval time
	metered  bool      // has closures or let, so needs a per-evaluation meter
	fast     *fastNode // evaluates simple programs without the VM; may be nil
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

// cacheSize bounds the compiled-program cache. Graphs hold a few dozen
// expressions each, so this covers many graphs while capping memory.
const cacheSize = 4096

// programs caches compiled programs by source.
var programs = &cache{entries: make(map[string]*Program)}

type cache struct {
	mu      sync.RWMutex
	entries map[string]*Program
}

func (c *cache) get(src string) *Program {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.entries[src]
}

// put stores p unless another goroutine compiled the same source first, and
// returns the stored program so every caller shares one.
func (c *cache) put(src string, p *Program) *Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[src]; ok {
		return old
	}
	if len(c.entries) >= cacheSize {
		// Dropping whichever entry map iteration yields first is close
		// enough to random eviction, and a dropped program only costs a
		// recompile.
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[src] = p
	return p
}

func (c *cache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
