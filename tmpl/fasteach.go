package tmpl

import (
	"strings"

	"github.com/mailgun/raymond/v2/ast"
)

// eachBlock is a {{#each list}}…{{/each}} the fast path renders: no
// {{else}}, no block params, and a body of text and plain lookups on the
// item (and @index). An await_reply question lists its options this way,
// and raymond, reflecting over every item, takes tens of microseconds for
// a handful of them.
type eachBlock struct {
	list []string
	body []segment
}

// compileEach returns the block when n qualifies, else nil.
func compileEach(n *ast.BlockStatement) *eachBlock {
	e := n.Expression
	head, ok := e.Path.(*ast.PathExpression)
	if !ok || head.Original != "each" || len(e.Params) != 1 || e.Hash != nil ||
		n.Inverse != nil || n.Program == nil || len(n.Program.BlockParams) > 0 {
		return nil
	}
	param, ok := e.Params[0].(*ast.PathExpression)
	if !ok {
		return nil
	}
	list := plainPath(&ast.Expression{Path: param})
	if list == nil {
		return nil
	}
	b := &eachBlock{list: list}
	for _, node := range n.Program.Body {
		switch s := node.(type) {
		case *ast.ContentStatement:
			b.body = append(b.body, segment{text: s.Value})
		case *ast.CommentStatement:
		case *ast.MustacheStatement:
			if isIndex(s.Expression) {
				b.body = append(b.body, segment{index: true})
				continue
			}
			path := plainPath(s.Expression)
			if path == nil {
				return nil
			}
			b.body = append(b.body, segment{path: path})
		default:
			return nil
		}
	}
	return b
}

func isIndex(e *ast.Expression) bool {
	p, ok := e.Path.(*ast.PathExpression)
	return ok && p.Data && len(e.Params) == 0 && e.Hash == nil && len(p.Parts) == 1 && p.Parts[0] == "index"
}

// render writes the block for vars. handled is false when raymond must
// render the whole template: the list is neither missing nor an array of
// objects, or an item lacks a field the body names, which raymond would
// then look up in the enclosing context.
func (b *eachBlock) render(out *strings.Builder, vars map[string]any) (handled bool, err error) {
	v, ok := resolve(vars, b.list)
	if !ok {
		return false, nil
	}
	if v == nil {
		return true, nil // falsy: the (empty) inverse
	}
	items, ok := v.([]any)
	if !ok {
		return false, nil
	}
	for i, it := range items {
		item, ok := it.(map[string]any)
		if !ok {
			return false, nil
		}
		for k := range b.body {
			s := &b.body[k]
			switch {
			case s.index:
				_, _ = writeKnown(out, i)
				continue
			case s.path == nil:
				out.WriteString(s.text)
				continue
			}
			if _, found := item[s.path[0]]; !found {
				return false, nil
			}
			fv, ok := resolve(item, s.path)
			if !ok {
				return false, nil
			}
			if known, err := writeKnown(out, fv); !known || err != nil {
				return known, err
			}
		}
		if out.Len() > MaxOutputBytes {
			return true, ErrOutputTooLarge
		}
	}
	return true, nil
}
