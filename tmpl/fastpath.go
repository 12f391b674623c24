package tmpl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mailgun/raymond/v2/ast"
)

// fastProgram is a template made only of text and plain {{a.b.c}} lookups,
// rendered without raymond. It reproduces exactly what raymond does for such
// a template on JSON-shaped data, and steps aside (handled=false) on anything
// else.
type fastProgram struct {
	segs    []segment
	textLen int
	refs    int
	blocks  bool // some segment is an each block
}

// segment is literal text, or a path to look up when path is non-nil, or
// an each block, or (inside one) the @index.
type segment struct {
	text  string
	path  []string
	each  *eachBlock
	index bool
}

// compileFast returns nil unless the parsed template qualifies. The AST is
// used, not the source, because raymond has already applied whitespace
// control ({{~x}}) and escapes (\{{) to its content nodes.
func compileFast(prog *ast.Program) *fastProgram {
	p := &fastProgram{}
	for _, node := range prog.Body {
		switch n := node.(type) {
		case *ast.ContentStatement:
			p.addText(n.Value)
		case *ast.CommentStatement:
		case *ast.MustacheStatement:
			path := plainPath(n.Expression)
			if path == nil {
				return nil
			}
			p.segs = append(p.segs, segment{path: path})
			p.refs++
		case *ast.BlockStatement:
			each := compileEach(n)
			if each == nil {
				return nil
			}
			p.segs = append(p.segs, segment{each: each})
			p.blocks = true
		default:
			return nil
		}
	}
	return p
}

func (p *fastProgram) addText(s string) {
	p.textLen += len(s)
	if k := len(p.segs) - 1; k >= 0 && p.segs[k].path == nil && p.segs[k].each == nil {
		p.segs[k].text += s
		return
	}
	p.segs = append(p.segs, segment{text: s})
}

// plainPath returns the lookup segments of a bare context path, or nil when
// raymond would do more than walk the context: helpers, params, literals,
// @data, this and ../ scoping.
func plainPath(e *ast.Expression) []string {
	p, ok := e.Path.(*ast.PathExpression)
	if !ok || len(e.Params) > 0 || e.Hash != nil || p.Data || p.Scoped || p.Depth > 0 || len(p.Parts) == 0 {
		return nil
	}
	if len(p.Parts) == 1 && knownHelpers[p.Parts[0]] {
		return nil
	}
	segs := make([]string, len(p.Parts))
	for i, part := range p.Parts {
		if len(part) >= 2 && part[0] == '[' && part[len(part)-1] == ']' {
			part = part[1 : len(part)-1]
		}
		// raymond indexes slices with any Atoi result and panics on a
		// negative one; leave that to the engine, which reports the panic.
		if n, err := strconv.Atoi(part); err == nil && n < 0 {
			return nil
		}
		segs[i] = part
	}
	return segs
}

// resolve walks path from root as raymond's evalField does for JSON shapes:
// map keys, slice indexes, and its "length" fallback for a missing key on a
// map, slice or string. ok is false when another type is met on the way
// (structs, pointers, json.Number with its methods…).
func resolve(root map[string]any, path []string) (v any, ok bool) {
	v = root
	for _, seg := range path {
		switch c := v.(type) {
		case map[string]any:
			e, found := c[seg]
			switch {
			case found:
				v = e
			case seg == "length":
				v = len(c)
			default:
				return nil, true
			}
		case []any:
			if i, err := strconv.Atoi(seg); err == nil && i < len(c) {
				v = c[i]
			} else if seg == "length" {
				v = len(c)
			} else {
				return nil, true
			}
		case string:
			if seg != "length" {
				return nil, true
			}
			v = len(c)
		case nil, bool, float64, int:
			return nil, true
		default:
			return nil, false
		}
	}
	return v, true
}

// render resolves every path first (into a stack array when there are few)
// so the builder is sized once: the common chat line costs one allocation.
// handled is false when raymond must render instead.
func (p *fastProgram) render(vars map[string]any) (out string, handled bool, err error) {
	defer func() {
		// A caller's value with a panicking MarshalJSON is the only way here.
		if r := recover(); r != nil {
			out, handled, err = "", true, fmt.Errorf("render template: %v", r)
		}
	}()
	if p.blocks {
		return p.renderBlocks(vars)
	}
	var stack [8]any
	vals := stack[:0]
	need, grow := p.textLen, p.textLen+16*p.refs
	if p.refs <= len(stack) {
		grow = p.textLen
		for i := range p.segs {
			s := &p.segs[i]
			if s.path == nil {
				continue
			}
			v, ok := resolve(vars, s.path)
			if !ok {
				return "", false, nil
			}
			vals = append(vals, v)
			if str, isStr := v.(string); isStr {
				need += len(str)
				grow += len(str)
			} else {
				grow += 8
			}
		}
	}
	if need > MaxOutputBytes {
		return "", true, ErrOutputTooLarge
	}
	var b strings.Builder
	b.Grow(grow)
	for i := range p.segs {
		s := &p.segs[i]
		if s.path == nil {
			b.WriteString(s.text)
			continue
		}
		var v any
		if len(vals) > 0 {
			v, vals = vals[0], vals[1:]
		} else {
			var ok bool
			if v, ok = resolve(vars, s.path); !ok {
				return "", false, nil
			}
		}
		known, err := writeKnown(&b, v)
		if !known || err != nil {
			return "", known, err
		}
		if b.Len() > MaxOutputBytes {
			return "", true, ErrOutputTooLarge
		}
	}
	return b.String(), true, nil
}

// renderBlocks renders a program with each blocks, whose output size is
// not known up front.
func (p *fastProgram) renderBlocks(vars map[string]any) (string, bool, error) {
	var b strings.Builder
	b.Grow(p.textLen + 64)
	for i := range p.segs {
		s := &p.segs[i]
		switch {
		case s.each != nil:
			if handled, err := s.each.render(&b, vars); !handled || err != nil {
				return "", handled, err
			}
		case s.path == nil:
			b.WriteString(s.text)
		default:
			v, ok := resolve(vars, s.path)
			if !ok {
				return "", false, nil
			}
			if known, err := writeKnown(&b, v); !known || err != nil {
				return "", known, err
			}
		}
		if b.Len() > MaxOutputBytes {
			return "", true, ErrOutputTooLarge
		}
	}
	return b.String(), true, nil
}
