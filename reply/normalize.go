package reply

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// normalize folds text to the form labels and replies are compared in:
// its tokens, lower-cased and stripped of accents, joined by single
// spaces. Rule: "case, accents, punctuation and trailing plurals folded".
//
// A token is a run of letters and digits; everything else (punctuation,
// symbols, emoji, spaces) only separates tokens, so "solution-architect!"
// reads "solution architect". Letters and digits are not split from each
// other: "POD40" is one token and "POD-40" is two, and they stay different.
// Each token then loses one plural "s" (see foldPlural).
func normalize(s string) string {
	if isNormal(s) {
		return s
	}
	var space [256]byte // most replies fit, sparing an allocation
	return string(appendNormal(space[:0], s))
}

// appendNormal appends the normal form of s to b. Match normalises all
// labels into one buffer this way, to allocate once rather than per label.
func appendNormal(b []byte, s string) []byte {
	base := len(b)
	start := -1   // where the open token starts in b, or -1
	latin := true // whether the last letter written was Latin
	for i := 0; i < len(s); {
		// ASCII runs, most of most text, take the table.
		for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
			if c := asciiFold[s[i]]; c != 0 {
				b, start = openToken(b, base, start)
				b = append(b, c)
				latin = true
			} else if start >= 0 {
				b, start = foldPlural(b, start), -1
			}
		}
		if i == len(s) {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		// Lower-case first: a few letters outside Latin-1 lower to ASCII
		// or to an accented letter (Kelvin sign to "k", Angstrom sign to
		// "å"), and must then fold like them.
		r = unicode.ToLower(r)
		var fold string
		if r >= utf8.RuneSelf {
			fold = foldLatin(r)
		}
		switch {
		case r < utf8.RuneSelf:
			if c := asciiFold[r]; c != 0 {
				b, start = openToken(b, base, start)
				b = append(b, c)
				latin = true
				continue
			}
		case fold != "":
			b, start = openToken(b, base, start)
			b = append(b, fold...)
			latin = true
			continue
		case unicode.Is(unicode.Mn, r) && start >= 0 && latin:
			// A combining accent after a Latin letter (decomposed
			// "é") is folded away like the precomposed one.
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (unicode.IsMark(r) && start >= 0):
			// Other scripts keep their letters and marks: folding
			// marks there could merge different words.
			b, start = openToken(b, base, start)
			b = utf8.AppendRune(b, r)
			latin = false
			continue
		}
		// Anything else separates tokens.
		if start >= 0 {
			b, start = foldPlural(b, start), -1
		}
	}
	if start >= 0 {
		b = foldPlural(b, start)
	}
	return b
}

// asciiFold maps an ASCII letter or digit to its lower case, anything else
// to 0.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c] = c
		t[c-'a'+'A'] = c
	}
	return t
}()

// openToken starts a token at the end of b unless one is open, with a
// space before it unless it is the first since base.
func openToken(b []byte, base, start int) ([]byte, int) {
	if start >= 0 {
		return b, start
	}
	if len(b) > base {
		b = append(b, ' ')
	}
	return b, len(b)
}

// foldPlural drops one trailing "s" from the token b[start:]. Rule:
// "trailing plurals folded", kept simple and safe: only a token of four or
// more runes, ending in a letter then "s" but not "ss", so "Managers"
// reads "manager" while "bus", "class" and "40s" stay as they are. Both
// sides are folded the same way, so a singular that happens to end in "s"
// ("status" to "statu") still equals itself.
func foldPlural(b []byte, start int) []byte {
	tok := b[start:]
	n := len(tok)
	if n < 4 || tok[n-1] != 's' || tok[n-2] == 's' || utf8.RuneCount(tok) < 4 {
		return b
	}
	prev, _ := utf8.DecodeLastRune(tok[:n-1])
	if !unicode.IsLetter(prev) {
		return b
	}
	return b[:len(b)-1]
}

// isNormal reports whether s is already in normal form, as a short reply
// such as "architect" usually is, so normalize can return it unchanged.
func isNormal(s string) bool {
	if s == "" {
		return true
	}
	for rest := s; ; {
		tok, after, more := strings.Cut(rest, " ")
		if tok == "" {
			return false // leading, trailing or doubled space
		}
		for i := 0; i < len(tok); i++ {
			c := tok[i]
			if !('a' <= c && c <= 'z') && !('0' <= c && c <= '9') {
				return false
			}
		}
		if n := len(tok); n >= 4 && tok[n-1] == 's' && tok[n-2] != 's' && 'a' <= tok[n-2] && tok[n-2] <= 'z' {
			return false // foldPlural would change it
		}
		if !more {
			return true
		}
		rest = after
	}
}
