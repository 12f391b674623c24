package tmpl

import (
	"strings"

	"github.com/mailgun/raymond/v2/lexer"
)

// maxSegmentRounds bounds how often lexPaths re-lexes a source. Each round
// fixes every numeric segment up to the first one the lexer chokes on, so
// ordinary templates need one or two; past the bound the lexer's own error
// is reported.
const maxSegmentRounds = 32

// idStop holds the characters that end an identifier in raymond's lexer.
const idStop = " \n\t!\"#%&'()*+,./;<=>@[\\]^`{|}~"

// lexPaths lexes src, first bracketing numeric path segments. Handlebars
// reads {{items.0.name}} as a path, but raymond's lexer takes "0" for a
// number ("0.n" even for a malformed one), so the template fails to parse.
// Written {{items.[0].name}} it means what Handlebars means. Only a number
// right after a path separator is touched, which raymond always rejects, so
// no template that raymond accepts changes meaning.
func lexPaths(src string) (string, []lexer.Token) {
	for round := 0; ; round++ {
		toks := lexAll(src)
		var at []int
		for i := 1; i < len(toks); i++ {
			if toks[i-1].Kind != lexer.TokenSep {
				continue
			}
			tok := toks[i]
			if tok.Kind == lexer.TokenNumber ||
				tok.Kind == lexer.TokenError && strings.HasPrefix(tok.Val, "bad number syntax") {
				at = append(at, tok.Pos)
			}
		}
		if len(at) == 0 || round == maxSegmentRounds {
			return src, toks
		}
		src = bracketSegments(src, at)
	}
}

// bracketSegments wraps the identifier starting at each position in [ ].
func bracketSegments(src string, at []int) string {
	var b strings.Builder
	b.Grow(len(src) + 2*len(at))
	last := 0
	for _, pos := range at {
		end := pos
		for end < len(src) && !strings.ContainsRune(idStop, rune(src[end])) {
			end++
		}
		b.WriteString(src[last:pos])
		b.WriteByte('[')
		b.WriteString(src[pos:end])
		b.WriteByte(']')
		last = end
	}
	b.WriteString(src[last:])
	return b.String()
}

// lexAll drains raymond's lexer, whose goroutine only ends once it has
// delivered EOF or an error.
func lexAll(src string) []lexer.Token {
	var toks []lexer.Token
	l := lexer.Scan(src)
	for {
		tok := l.NextToken()
		toks = append(toks, tok)
		if tok.Kind == lexer.TokenEOF || tok.Kind == lexer.TokenError {
			return toks
		}
	}
}
