package reply

import (
	"strings"
	"unicode/utf8"
)

// minTokenRunes is the "minimum length" of the token tier: the side that
// is contained must have at least one token this long. Three lets a bare
// "art", "pod" or "sql" pick an option, while "IT", "a", "to" and the two
// halves of "N/A" can never decide anything on their own.
const minTokenRunes = 3

// bigReply is the length of normalised reply beyond which its tokens are
// looked up in a map instead of by scanning, so a pasted essay costs time
// in proportion to its length rather than to its length times the options.
const bigReply = 4096

// tokenSet answers whether a normalised text has a whole token.
type tokenSet struct {
	text string
	set  map[string]struct{} // nil for short texts
}

func newTokenSet(text string) tokenSet {
	ts := tokenSet{text: text}
	if len(text) > bigReply {
		ts.set = make(map[string]struct{})
		for rest := text; rest != ""; {
			var tok string
			tok, rest, _ = strings.Cut(rest, " ")
			ts.set[tok] = struct{}{}
		}
	}
	return ts
}

// has reports whether tok is a whole token of the text. Rule: "Whole
// tokens, never raw substrings", so "it" is not found in "architect" and
// "40" is not found in "pod 401".
func (ts tokenSet) has(tok string) bool {
	if ts.set != nil {
		_, ok := ts.set[tok]
		return ok
	}
	hay := ts.text
	for {
		i := strings.Index(hay, tok)
		if i < 0 {
			return false
		}
		end := i + len(tok)
		if (i == 0 || hay[i-1] == ' ') && (end == len(hay) || hay[end] == ' ') {
			return true
		}
		hay = hay[i+1:]
	}
}

// containsAll reports whether every token of sub is a whole token of ts,
// and sub has at least one token of minTokenRunes or more. Every token
// counts, short ones included: dropping "40" from "POD-40" would leave
// "pod", which "POD-401" contains.
func (ts tokenSet) containsAll(sub string) bool {
	long := false
	for rest := sub; rest != ""; {
		var tok string
		tok, rest, _ = strings.Cut(rest, " ")
		if !ts.has(tok) {
			return false
		}
		if !long && utf8.RuneCountInString(tok) >= minTokenRunes {
			long = true
		}
	}
	return long
}
