// Package tmpl compiles and renders the Handlebars templates found in node
// configs: chat text such as "Done {{v8}} for {{userMessage}}" and JSON
// request bodies (see JSONTemplate).
//
// Templates are Handlebars as implemented by raymond, adjusted for chat text
// rather than HTML:
//
//   - Nothing is HTML-escaped: {{x}}, {{&x}} and {{{x}}} all print x as is.
//   - Values print as text: strings as is, numbers in plain decimal (8.0
//     prints "8", 2.5 prints "2.5"), booleans as true/false, null and missing
//     values as nothing, objects and arrays as compact JSON ({"a":1}, ["x"]).
//   - {{items.0.name}} indexes arrays, as in Handlebars.js.
//   - {{#each}} over an object visits keys in sorted order; {{lookup}}
//     returns the value itself, so {{#with (lookup a b)}} works.
//   - Refused at Parse: block helpers outside a block ({{if x}} recurses
//     without end in raymond), a second block param (as |item i|: use
//     {{@index}} or {{@key}}), and the reserved names __tmpl_text and
//     __tmpl_section. {{log}} prints nothing and logs nothing.
//   - A render is bounded by MaxOutputBytes and MaxIterations, checked as it
//     runs, and never panics.
//
// Templates that are only text and plain {{a.b}} lookups are rendered by a
// fast path without raymond; the output is the same either way.
package tmpl

import (
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/mailgun/raymond/v2/ast"
	"github.com/mailgun/raymond/v2/parser"
)

const (
	// MaxSourceBytes is the longest template source Parse accepts.
	MaxSourceBytes = 64 << 10
	// MaxOutputBytes is the longest output a render may produce. It is
	// enforced while rendering, not only on the result: nested loops make
	// the output grow as a power of the input size, so a check at the end
	// would come after the memory is gone.
	MaxOutputBytes = 1 << 20
	// MaxIterations is how many loop bodies one render may run, counting
	// every level of nested loops; it bounds loops that print little or nothing.
	MaxIterations = 100_000
)

var (
	// ErrOutputTooLarge is returned when a render would exceed MaxOutputBytes.
	ErrOutputTooLarge = fmt.Errorf("rendered output exceeds %d bytes", MaxOutputBytes)
	// ErrTooManyIterations is returned when a render would exceed MaxIterations.
	ErrTooManyIterations = fmt.Errorf("template loops more than %d times", MaxIterations)
)

// Template is a compiled chat-text Handlebars template. Safe for concurrent use.
type Template struct {
	src    string
	static bool
	fast   *fastProgram
	// engine is built at Parse when the fast path cannot render the template,
	// and on first need otherwise (values the fast path leaves to raymond).
	engine func() (*engine, error)
}

// Parse compiles src. Syntax errors name the line they occur on.
func Parse(src string) (*Template, error) {
	if len(src) > MaxSourceBytes {
		return nil, fmt.Errorf("template is %d bytes, over the %d-byte limit", len(src), MaxSourceBytes)
	}
	syn, fixed, err := scan(src)
	if err != nil {
		return nil, fmt.Errorf("invalid template: %w", err)
	}
	t := &Template{src: src, static: syn.static(fixed)}
	rewritten := syn.rewrite(fixed)
	if !t.static {
		prog, err := parseAST(fixed)
		if err != nil {
			return nil, err
		}
		t.fast = compileFast(prog)
	}
	if t.static || t.fast != nil {
		t.engine = sync.OnceValues(func() (*engine, error) { return newEngine(rewritten) })
		return t, nil
	}
	e, err := newEngine(rewritten)
	if err != nil {
		return nil, err
	}
	t.engine = func() (*engine, error) { return e, nil }
	return t, nil
}

// parseAST runs raymond's parser on a source scan has accepted, so it does
// not fail in practice; the recover is there because raymond re-panics
// runtime errors.
func parseAST(src string) (prog *ast.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("invalid template: %v", r)
		}
	}()
	prog, err = parser.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("invalid template: %w", err)
	}
	return prog, nil
}

// Source returns the text the template was parsed from.
func (t *Template) Source() string { return t.src }

// IsStatic reports whether the template contains no mustache at all, so
// rendering always returns Source unchanged.
func (t *Template) IsStatic() bool { return t.static }

// Render renders with vars as the root context. It never panics.
func (t *Template) Render(vars map[string]any) (string, error) {
	if t.static {
		return t.src, nil
	}
	if t.fast != nil {
		if out, handled, err := t.fast.render(vars); handled {
			return out, err
		}
	}
	return t.renderEngine(vars)
}

// RenderWith renders with the keys of extra shadowing those of vars, for this
// render only; neither map is modified. It copies vars when extra is not
// empty, which is cheap next to a render that needs it (a question's options).
func (t *Template) RenderWith(vars map[string]any, extra map[string]any) (string, error) {
	if len(extra) == 0 || t.static {
		return t.Render(vars)
	}
	merged := make(map[string]any, len(vars)+len(extra))
	maps.Copy(merged, vars)
	maps.Copy(merged, extra)
	return t.Render(merged)
}

func (t *Template) renderEngine(vars map[string]any) (string, error) {
	e, err := t.engine()
	if err != nil {
		return "", err
	}
	return e.render(vars)
}

// isLimit reports whether err is one of the render limits.
func isLimit(err error) bool {
	return errors.Is(err, ErrOutputTooLarge) || errors.Is(err, ErrTooManyIterations)
}
