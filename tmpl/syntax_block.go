package tmpl

import (
	"strconv"
	"strings"

	"github.com/mailgun/raymond/v2/lexer"
)

// block reads {{#x}}…{{else …}}…{{/x}}, or {{^x}}…{{else}}…{{/x}} when inverse.
func (s *syntax) block(inverse bool) {
	open := s.next()
	n := s.openBlock()
	s.program()
	switch {
	case s.is(lexer.TokenInverse):
		s.shift()
		s.program()
	case !inverse && s.is(lexer.TokenOpenInverseChain):
		s.inverseChain()
	}
	s.closeTag(open, n, lexer.TokenOpenEndBlock, lexer.TokenClose)
}

// inverseChain reads {{else if y}}… and whatever else follows it.
func (s *syntax) inverseChain() {
	s.openBlock()
	s.program()
	switch {
	case s.is(lexer.TokenInverse):
		s.shift()
		s.program()
	case s.is(lexer.TokenOpenInverseChain):
		s.inverseChain()
	}
}

// openBlock reads an opening tag. A block whose expression is not a helper
// call is a section: raymond evaluates it and, for an array, loops itself,
// outside any budget. Wrapping the expression as sectionHelper's argument
// keeps its value exactly (a subexpression is evaluated like a block's own
// expression) while putting the loop under the budget.
func (s *syntax) openBlock() name {
	open := s.shift()
	n := s.expression(false)
	end := s.next()
	raw := open.Kind == lexer.TokenOpenRawBlock
	if !raw && s.is(lexer.TokenOpenBlockParams) {
		s.shift()
		s.expect(lexer.TokenID)
		if s.is(lexer.TokenID) {
			s.fail(s.next(), "a second block param (as |item %s|) is not supported: use {{@index}} or {{@key}}", s.next().Val)
		}
		s.expect(lexer.TokenCloseBlockParams)
	}
	if raw {
		s.expect(lexer.TokenCloseRawBlock)
	} else {
		s.expect(lexer.TokenClose)
	}
	if isSection(n) {
		s.edits = append(s.edits,
			edit{pos: open.Pos + len(open.Val), ins: " " + sectionHelper + " ("},
			edit{pos: end.Pos, ins: ")"})
	}
	return n
}

func (s *syntax) rawBlock() {
	open := s.next()
	n := s.openBlock()
	s.expect(lexer.TokenContent)
	s.closeTag(open, n, lexer.TokenOpenEndRawBlock, lexer.TokenCloseRawBlock)
}

// closeTag reads {{/name}} (or its raw form) and checks it matches the opener.
func (s *syntax) closeTag(open *lexer.Token, n name, endKind, closeKind lexer.TokenKind) {
	if s.is(lexer.TokenEOF) {
		s.fail(open, "%s is never closed", tag(open, n))
	}
	end := s.expect(endKind)
	got := s.helperName()
	if got.canonical != n.canonical {
		s.fail(end, "%s does not close %s", tag(end, got), tag(open, n))
	}
	tail := s.expect(closeKind)
	if isSection(n) {
		from := end.Pos + len(end.Val)
		s.edits = append(s.edits, edit{pos: from, del: tail.Pos - from, ins: " " + sectionHelper + " "})
	}
}

// helperName reads a literal or a path, as raymond's parseHelperName does.
func (s *syntax) helperName() name {
	tok := s.next()
	switch tok.Kind {
	case lexer.TokenBoolean, lexer.TokenString:
		s.shift()
		return name{canonical: tok.Val}
	case lexer.TokenNumber:
		s.shift()
		if i, err := strconv.Atoi(tok.Val); err == nil {
			return name{canonical: strconv.FormatFloat(float64(i), 'f', 0, 64)}
		}
		f, err := strconv.ParseFloat(tok.Val, 64)
		if err != nil {
			s.fail(tok, "bad number %q", tok.Val)
		}
		return name{canonical: strconv.FormatFloat(f, 'f', -1, 64)}
	case lexer.TokenData:
		s.shift()
		return s.path("@")
	}
	return s.path("")
}

// path reads ID (SEP ID)*. Scope segments ("..", ".", "this") may only lead.
func (s *syntax) path(original string) name {
	var parts []string
	scoped := false
	for {
		tok := s.expect(lexer.TokenID)
		if reserved[tok.Val] {
			s.fail(tok, "%q is a reserved name", tok.Val)
		}
		original += tok.Val
		switch tok.Val {
		case "..", ".", "this":
			if len(parts) > 0 {
				s.fail(tok, "invalid path %q", original)
			}
			scoped = true
		default:
			parts = append(parts, tok.Val)
		}
		if !s.is(lexer.TokenSep) {
			break
		}
		original += s.shift().Val
	}
	n := name{canonical: original}
	if len(original) >= 2 && original[0] == '[' && original[len(original)-1] == ']' {
		n.canonical = original[1 : len(original)-1]
	}
	if !strings.HasPrefix(original, "@") && !scoped && len(parts) == 1 {
		n.helper = parts[0]
	}
	return n
}

func isSection(n name) bool { return n.helper == "" || !knownHelpers[n.helper] }

// tag spells a block tag for messages: {{#if}}, {{/each}}, {{{{raw}}}}.
func tag(open *lexer.Token, n name) string {
	t := strings.ReplaceAll(open.Val, "~", "") + n.canonical + "}}"
	if strings.HasPrefix(t, "{{{{") {
		t += "}}"
	}
	return t
}
