package failure

import "strings"

// phrase is a lower-case phrase that counts only as whole words: the text
// around it must not continue it with a letter or digit. Plain substring
// search is what makes message classification cheap; Go's regexp engine
// is slow on case-insensitive alternations of many words.
type phrase struct {
	text string
	// gluedPrefix lets letters run into the phrase from the left, for
	// exception names such as ReadTimeout or APITimeoutError.
	gluedPrefix bool
	// suffixes are the endings that may run on from the right ("s",
	// "error"), longest first.
	suffixes []string
	// headerName rejects the phrase when "-" follows it: it is then part of
	// a header name such as X-RateLimit-Remaining, which a service sends
	// with every answer, not only when it limits.
	headerName bool
}

// index returns the span of the first whole-word occurrence of p in text
// at or after from, or -1, -1.
func (p phrase) index(text string, from int) (start, end int) {
	for from <= len(text) {
		i := strings.Index(text[from:], p.text)
		if i < 0 {
			return -1, -1
		}
		start, end = from+i, from+i+len(p.text)
		if p.leftEdge(text, start) {
			if e := p.rightEdge(text, end); e >= 0 {
				return start, e
			}
		}
		from = start + 1
	}
	return -1, -1
}

func (p phrase) leftEdge(text string, start int) bool {
	if p.gluedPrefix {
		for start > 0 && 'a' <= text[start-1] && text[start-1] <= 'z' {
			start--
		}
	}
	return start == 0 || !isAlnum(text[start-1])
}

// rightEdge returns where the phrase ends, after an allowed suffix, or -1
// when a letter or digit continues it.
func (p phrase) rightEdge(text string, end int) int {
	if p.headerName && end < len(text) && text[end] == '-' {
		return -1
	}
	if end == len(text) || !isAlnum(text[end]) {
		return end
	}
	for _, s := range p.suffixes {
		e := end + len(s)
		if strings.HasPrefix(text[end:], s) && (e == len(text) || !isAlnum(text[e])) {
			return e
		}
	}
	return -1
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// phrases is a set of phrases that all mean one thing.
type phrases []phrase

// in reports whether any phrase occurs in text as whole words.
func (ps phrases) in(text string) bool {
	for _, p := range ps {
		if start, _ := p.index(text, 0); start >= 0 {
			return true
		}
	}
	return false
}

// words turns plain strings into phrases with no glue allowed.
func words(texts ...string) phrases {
	ps := make(phrases, len(texts))
	for i, t := range texts {
		ps[i] = phrase{text: t}
	}
	return ps
}

// join concatenates phrase lists.
func join(lists ...phrases) phrases {
	var out phrases
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// asHeaderNames returns ps with headerName set on each.
func (ps phrases) asHeaderNames() phrases {
	out := make(phrases, len(ps))
	for i, p := range ps {
		p.headerName = true
		out[i] = p
	}
	return out
}

// withSuffixes returns ps with suffixes allowed on each.
func (ps phrases) withSuffixes(suffixes ...string) phrases {
	out := make(phrases, len(ps))
	for i, p := range ps {
		p.suffixes = suffixes
		out[i] = p
	}
	return out
}

// foldPhraseText lower-cases the ASCII letters of msg and turns "_" into
// a space, so that RESOURCE_EXHAUSTED reads as the phrase "resource
// exhausted". Byte offsets are preserved.
func foldPhraseText(msg string) string {
	b := []byte(msg)
	for i, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c == '_':
			b[i] = ' '
		}
	}
	return string(b)
}
