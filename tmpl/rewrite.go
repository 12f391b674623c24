package tmpl

import "strings"

// Names of the helpers each raymond template gets. raymond has no switch for
// HTML escaping and prints maps in Go syntax, and its AST cannot be edited
// after parsing (the parsed program is unexported), so the source itself is
// rewritten from the checked token stream, never by text search:
//
//	{{x}}  →  {{& __tmpl_text (x)}}
//
// A subexpression is evaluated exactly like a mustache's own expression, so x
// keeps its meaning; textHelper then formats the value (JSON for maps and
// slices) and counts it against the render budget, and the & turns escaping off.
// Triple-stash mustaches get the same helper and stay unescaped. Blocks that
// are not helper calls are routed through sectionHelper the same way:
//
//	{{#items}}…{{/items}}  →  {{# __tmpl_section (items)}}…{{/ __tmpl_section }}
const (
	textHelper    = "__tmpl_text"
	sectionHelper = "__tmpl_section"
)

// reserved names may not appear in templates, so no template can call the
// internal helpers with arguments of its choosing.
var reserved = map[string]bool{textHelper: true, sectionHelper: true}

// blockHelpers run the block they are attached to. Called from a mustache or
// a subexpression they run the enclosing block instead, which contains that
// very call: unbounded recursion and a fatal stack overflow. They are only
// accepted as the helper of a block.
var blockHelpers = map[string]bool{
	"if": true, "unless": true, "with": true, "each": true, "equal": true,
	"ifGt": true, "ifLt": true, "ifEq": true, "ifMatchesRegexStr": true,
}

// knownHelpers are raymond's global built-ins: a single-name expression
// matching one of them is a helper call, anything else is a context lookup.
// Helpers registered globally by other code are not seen here.
var knownHelpers = map[string]bool{
	"if": true, "unless": true, "with": true, "each": true, "equal": true,
	"ifGt": true, "ifLt": true, "ifEq": true, "ifMatchesRegexStr": true,
	"log": true, "lookup": true, "pluralize": true,
}

// edit replaces src[pos:pos+del] with ins.
type edit struct {
	pos, del int
	ins      string
}

// rewrite applies the collected edits, which scan appended in source order.
func (s *syntax) rewrite(src string) string {
	edits := s.edits
	if len(edits) == 0 {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 24*len(edits))
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.pos])
		b.WriteString(e.ins)
		last = e.pos + e.del
	}
	b.WriteString(src[last:])
	return b.String()
}
