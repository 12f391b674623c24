package expression

import (
	"errors"
	"fmt"
	"strings"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser"
)

// disabledBuiltins are refused at compile time, with the reason given.
var disabledBuiltins = map[string]string{
	"now": "results must not depend on the wall clock",
}

// compile runs expr's pipeline by hand rather than through expr.Compile
// because the tree has to be analysed and rewritten between parsing and
// type checking, which expr's visitor hook cannot do: it type-checks the
// tree before running visitors and then trusts those stale types.
func compile(src string) (_ *Program, err error) {
	// expr's parser and checker are not known to panic, but a compile
	// failure must never take down the engine loading a graph.
	defer func() {
		if r := recover(); r != nil {
			err = newError(src, fmt.Sprintf("internal error: %v", r), nil)
		}
	}()
	if len(src) > MaxSourceBytes {
		return nil, newError(src, fmt.Sprintf("source is %d bytes, more than MaxSourceBytes (%d)", len(src), MaxSourceBytes), nil)
	}
	cfg := newConfig()
	tree, err := parser.ParseWithConfig(src, cfg)
	if err != nil {
		return nil, wrapError(src, err)
	}
	an, err := analyze(tree.Node, tree.Source)
	if err != nil {
		return nil, wrapError(src, err)
	}
	// Checking the tree as written keeps expr's own messages for mistakes
	// such as upper(1), before rewriting turns builtins into plain calls.
	if _, err := checker.Check(tree, cfg); err != nil {
		return nil, wrapError(src, err)
	}
	if an.rewrite() {
		rewrite(&tree.Node, an)
		if _, err := checker.Check(tree, cfg); err != nil {
			return nil, wrapError(src, err)
		}
	}
	if err := optimizer.Optimize(&tree.Node, cfg); err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			err = fe.Bind(tree.Source)
		}
		return nil, wrapError(src, err)
	}
	prog, err := compiler.Compile(tree, cfg)
	if err != nil {
		// The compiler reports its own panics with a stack trace attached;
		// only the first line means anything to the graph's author.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return nil, newError(src, msg, err)
	}
	p := &Program{
		source:   src,
		program:  prog,
		vars:     an.variables(),
		required: an.required(),
		metered:  an.heavy,
	}
	// Rewritten trees call metered functions, which the fast path leaves
	// to the VM; the optimised tree is what the VM runs, constants folded.
	if fast := fastPath(tree.Node); fast != nil && !an.rewrite() {
		p.fast = fast.requiring(p.required)
	}
	return p, nil
}

// newConfig builds a fresh configuration per compilation because expr's
// checker and compiler cache type information inside it.
func newConfig() *conf.Config {
	cfg := conf.CreateNew()
	// An empty map[string]any env makes identifiers compile to direct map
	// lookups, while Strict=false lets unknown names through: the context
	// differs per run and presence is checked by Eval instead.
	cfg.WithEnv(map[string]any{})
	cfg.Strict = false
	cfg.MaxNodes = MaxNodes
	for name := range disabledBuiltins {
		cfg.Disabled[name] = true
	}
	// The parser resolves builtin calls on its own; this table only serves
	// the checker's lookup of bare identifiers, where a context key named
	// "count" or "type" must win over the builtin of the same name.
	cfg.Builtins = map[string]*builtin.Function{}
	for name, fn := range meteredFunctions {
		cfg.Functions[hiddenName(name)] = fn
	}
	cfg.Functions[addName] = addFunction
	cfg.Functions[stepName] = stepFunction
	return cfg
}
