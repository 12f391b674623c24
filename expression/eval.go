package expression

import (
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/expr-lang/expr/vm"
)

// Eval evaluates the program against vars, which it never modifies.
//
// Missing variables are errors, not nil: before running, Eval checks that
// every root identifier the expression reads is a key of vars (a key
// holding nil counts as set) and otherwise returns a *MissingVariableError
// naming the first missing one in sorted order. The check is static, so it
// covers both branches of a ternary and both sides of and/or.
//
// The one exemption is a root on the left of ?? that can be absent without
// breaking its path: a bare identifier or the root of a path starting with
// ?., as x in `x ?? 0`, `x?.y ?? 0`, `x?.y.z ?? 0`, `x?.[0] ?? 0` and
// `x ?? y ?? 0` (where y is exempt too, being on the left of the second
// ??). Such a missing root reads as nil, so the fallback applies. Every
// other read must be set: x in `x.y ?? 0` or `x[0] ?? 0` (expr fails on a
// nil x there, so absence is reported as such), i in `x?.[i] ?? 0`, x in
// `(x + 1) ?? 0`. ?. on its own exempts nothing: `x?.y == 1` with x
// missing is an error, because ?. is about nil values, not absent ones.
// `$env["x"]` and `"x" in $env` read the context without the check.
//
// Below the root, paths follow expr: a key missing from an object reads as
// nil (`a.b` is nil when a has no b), while indexing past the end of a list
// or reading a field of nil is an error unless ?. or ?? guards it.
//
// Eval never panics; failures, including exceeding MemoryBudget,
// MaxIterations, MaxBuiltBytes or BuildBudget, come back as errors quoting
// the source.
func (p *Program) Eval(vars map[string]any) (any, error) {
	return p.eval(vars, true)
}

// eval is Eval, with the fast path optional so that tests can compare it
// with the VM.
func (p *Program) eval(vars map[string]any, fast bool) (any, error) {
	if p == nil || p.program == nil {
		return nil, errors.New("expression: Eval called on a nil Program")
	}
	if fast && p.fast != nil {
		// Success proves every variable is set, so the presence check
		// comes after, saving a second lookup of each; failure, missing
		// variables included, goes on as if there were no fast path.
		if out, ok := p.fast.eval(vars); ok {
			return out, nil
		}
	}
	for _, name := range p.required {
		if _, ok := vars[name]; !ok {
			return nil, &MissingVariableError{Name: name, Source: p.source}
		}
	}
	return p.run(vars)
}

// run evaluates the program on expr's VM.
func (p *Program) run(vars map[string]any) (out any, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, newError(p.source, fmt.Sprint(r), nil)
		}
	}()
	env := vars
	if p.metered {
		env = meteredEnv(vars)
		defer releaseEnv(env)
	}
	machine := machines.Get().(*vm.VM)
	out, err = machine.Run(p.program, env)
	release(machine)
	if err != nil {
		return nil, wrapError(p.source, err)
	}
	return out, nil
}

// EvalBool evaluates the program and requires a boolean result, as
// conditions do; any other result is an error naming what came back.
func (p *Program) EvalBool(vars map[string]any) (bool, error) {
	out, err := p.Eval(vars)
	if err != nil {
		return false, err
	}
	b, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("expression %s returned %s, want true or false", quote(p.source), describe(out))
	}
	return b, nil
}

// machines reuses virtual machines, whose stacks would otherwise be
// allocated on every evaluation.
var machines = sync.Pool{New: func() any { return &vm.VM{MemoryBudget: MemoryBudget} }}

// release clears what the machine still references, so a pooled machine
// does not keep a run's context alive, and returns it to the pool.
func release(m *vm.VM) {
	// A plain loop: clear() on these two- or three-slot stacks goes through
	// the runtime's bulk clearing, which measurably slows a simple Eval.
	stack := m.Stack[:cap(m.Stack)]
	for i := range stack {
		stack[i] = nil
	}
	clear(m.Variables)
	machines.Put(m)
}

// envs reuses the context copies heavy programs evaluate against.
var envs = sync.Pool{New: func() any { return make(map[string]any) }}

// meteredEnv copies vars and adds a fresh meter. Copying keeps the caller's
// map untouched, which matters because other goroutines may be reading it.
func meteredEnv(vars map[string]any) map[string]any {
	env := envs.Get().(map[string]any)
	maps.Copy(env, vars)
	env[meterName] = &meter{}
	env[varsName] = vars
	return env
}

func releaseEnv(env map[string]any) {
	clear(env)
	envs.Put(env)
}
