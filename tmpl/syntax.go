package tmpl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mailgun/raymond/v2/lexer"
)

// syntax is one checked pass over raymond's token stream. The checker follows
// raymond's parser rule for rule, so a source it accepts is one raymond parses.
// It exists because raymond's parser, on a syntax error, stops reading from a
// lexer goroutine that then blocks forever: every rejected template would leak
// a goroutine holding the source. Here the lexer is always drained to its end,
// and raymond only ever sees sources that parse. The same pass collects the
// source edits that rewrite.go applies.
type syntax struct {
	toks []lexer.Token
	pos  int

	// edits make every mustache unescaped and route it through textHelper,
	// and route blocks that raymond would loop over itself through
	// sectionHelper, which honours the render budget.
	edits []edit
}

// syntaxError carries a message up through the recursive checker.
type syntaxError struct{ err error }

// name is what the checker knows about an expression's leading helperName.
type name struct {
	canonical string // raymond's Canonical(): compared between open and close tags
	helper    string // raymond's HelperName(): non-empty when it may call a helper
}

// scan checks src and returns the source the rest of the package works on:
// src itself, or src with numeric path segments bracketed (see lexPaths).
func scan(src string) (s *syntax, fixed string, err error) {
	s = &syntax{}
	fixed, s.toks = lexPaths(src)
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(syntaxError)
			if !ok {
				panic(r)
			}
			s, fixed, err = nil, "", se.err
		}
	}()
	s.program()
	switch tok := s.shift(); tok.Kind {
	case lexer.TokenEOF:
	case lexer.TokenOpenEndBlock, lexer.TokenInverse, lexer.TokenOpenInverseChain:
		s.fail(tok, "%s outside of a block", describe(tok))
	default:
		s.fail(tok, "unexpected %s", describe(tok))
	}
	return s, fixed, nil
}

func (s *syntax) fail(tok *lexer.Token, format string, args ...any) {
	panic(syntaxError{fmt.Errorf("line %d: %s", tok.Line, fmt.Sprintf(format, args...))})
}

// next peeks; the last token is always EOF or an error, and is never passed.
func (s *syntax) next() *lexer.Token { return s.at(0) }

func (s *syntax) at(i int) *lexer.Token {
	return &s.toks[min(s.pos+i, len(s.toks)-1)]
}

func (s *syntax) is(k lexer.TokenKind) bool { return s.next().Kind == k }

func (s *syntax) shift() *lexer.Token {
	tok := s.next()
	if tok.Kind == lexer.TokenError {
		s.fail(tok, "%s", strings.ToLower(tok.Val))
	}
	s.pos++
	return tok
}

func (s *syntax) expect(k lexer.TokenKind) *lexer.Token {
	tok := s.shift()
	if tok.Kind != k {
		s.fail(tok, "expected %s, got %s", kindNames[k], describe(tok))
	}
	return tok
}

var kindNames = map[lexer.TokenKind]string{
	lexer.TokenClose:            `"}}"`,
	lexer.TokenCloseUnescaped:   `"}}}"`,
	lexer.TokenCloseSexpr:       `")"`,
	lexer.TokenCloseRawBlock:    `"}}}}"`,
	lexer.TokenCloseBlockParams: `"|"`,
	lexer.TokenOpenEndBlock:     "a closing tag",
	lexer.TokenOpenEndRawBlock:  "a raw block closing tag",
	lexer.TokenContent:          "raw block content",
	lexer.TokenID:               "a name",
}

func describe(tok *lexer.Token) string {
	if tok.Kind == lexer.TokenEOF {
		return "end of template"
	}
	return strconv.Quote(tok.Val)
}

func (s *syntax) program() {
	for {
		switch s.next().Kind {
		case lexer.TokenOpen, lexer.TokenOpenUnescaped:
			s.mustache()
		case lexer.TokenOpenBlock:
			s.block(false)
		case lexer.TokenOpenInverse:
			s.block(true)
		case lexer.TokenOpenRawBlock:
			s.rawBlock()
		case lexer.TokenOpenPartial:
			s.shift()
			s.param()
			s.paramsHash()
			s.expect(lexer.TokenClose)
		case lexer.TokenContent, lexer.TokenComment:
			s.shift()
		default:
			return
		}
	}
}

func (s *syntax) mustache() {
	open := s.shift()
	closeKind := lexer.TokenClose
	ins := " " + textHelper + " ("
	if open.Kind == lexer.TokenOpenUnescaped {
		closeKind = lexer.TokenCloseUnescaped
		s.edits = append(s.edits, edit{pos: open.Pos + len(open.Val), ins: ins})
	} else {
		// "{{", "{{~", "{{&" or "{{~&" all become the unescaped form.
		tag := "{{&"
		if strings.Contains(open.Val, "~") {
			tag = "{{~&"
		}
		s.edits = append(s.edits, edit{pos: open.Pos, del: len(open.Val), ins: tag + ins})
	}
	s.expression(true)
	end := s.expect(closeKind)
	s.edits = append(s.edits, edit{pos: end.Pos, ins: ")"})
}

// expression reads helperName param* hash?. At a call site (mustache or
// subexpression) a block helper would re-run the enclosing block from inside
// itself and recurse until the process dies, so it is refused here.
func (s *syntax) expression(callSite bool) name {
	tok := s.next()
	n := s.helperName()
	if callSite && blockHelpers[n.helper] {
		s.fail(tok, "%q is a block helper: write {{#%s …}}…{{/%s}}", n.helper, n.helper, n.helper)
	}
	s.paramsHash()
	return n
}

func (s *syntax) paramsHash() {
	for (s.is(lexer.TokenOpenSexpr) || s.isHelperName()) && !s.isHashSegment() {
		s.param()
	}
	for s.isHashSegment() {
		s.shift()
		s.shift()
		s.param()
	}
}

func (s *syntax) isHashSegment() bool {
	return s.next().Kind == lexer.TokenID && s.at(1).Kind == lexer.TokenEquals
}

func (s *syntax) isHelperName() bool {
	switch s.next().Kind {
	case lexer.TokenBoolean, lexer.TokenNumber, lexer.TokenString, lexer.TokenData, lexer.TokenID:
		return true
	}
	return false
}

func (s *syntax) param() {
	if !s.is(lexer.TokenOpenSexpr) {
		s.helperName()
		return
	}
	s.shift()
	s.expression(true)
	s.expect(lexer.TokenCloseSexpr)
}

// static reports whether the source is plain text that renders as itself.
// An escaped "\{{" lexes as content but loses its backslash, so the content
// must also add up to the source.
func (s *syntax) static(src string) bool {
	n := 0
	for _, tok := range s.toks[:len(s.toks)-1] {
		if tok.Kind != lexer.TokenContent {
			return false
		}
		n += len(tok.Val)
	}
	return n == len(src)
}
