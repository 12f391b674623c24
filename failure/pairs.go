package failure

import "strings"

// redactPairs redacts the values of secret-named fields wherever a name is
// followed by "=", ":" or a percent-encoded "=" (%3D).
// Rule: redact "query/form parameters whose name looks secret ... also in
// JSON-ish "password": "..." and password=...".
//
// It is a scanner rather than a regexp because a pattern that can start at
// any letter is slow in Go's regexp engine, while separators are rare: the
// scanner jumps from separator to separator, reads the name backwards and
// the value forwards.
func redactPairs(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		sepEnd := pairSeparator(s, i)
		if sepEnd < 0 {
			continue
		}
		name, nameStart := pairName(s, i)
		if !isSecretName(name) {
			continue
		}
		lo, hi := pairValue(s, sepEnd)
		if hi <= lo || !colonPairOK(s, i, nameStart, lo, name) {
			continue
		}
		if s[lo:hi] == Redacted {
			i = hi - 1
			continue
		}
		b.WriteString(s[last:lo])
		b.WriteString(Redacted)
		last, i = hi, hi-1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// pairSeparator returns the end of the separator starting at i, or -1.
func pairSeparator(s string, i int) int {
	switch {
	case s[i] == '=' || s[i] == ':':
		return i + 1
	case s[i] == '%' && i+2 < len(s) && s[i+1] == '3' && (s[i+2] == 'D' || s[i+2] == 'd'):
		return i + 3
	}
	return -1
}

// pairName reads the field name that ends before the separator at sep,
// stepping back over spaces and a closing quote (", ' or \" in JSON that
// is itself inside a JSON string), and over a percent-encoded "?" or "&"
// glued in front (%3Fapi_key).
func pairName(s string, sep int) (name string, start int) {
	end := sep
	for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	if end > 0 && (s[end-1] == '"' || s[end-1] == '\'') {
		end--
		if end > 0 && s[end-1] == '\\' {
			end--
		}
	}
	start = end
	for start > 0 && isNameByte(s[start-1]) {
		start--
	}
	if start > 0 && s[start-1] == '%' && end-start > 2 && isHex(s[start]) && isHex(s[start+1]) {
		start += 2
	}
	return s[start:end], start
}

// pairValue returns the span of the value that starts after the separator
// ending at from: a quoted string (double, single, or escaped double quotes)
// or a bare value. An unterminated quoted value runs to the end of s: a
// truncated body must not leak the secret it was cut in.
func pairValue(s string, from int) (lo, hi int) {
	for from < len(s) && (s[from] == ' ' || s[from] == '\t') {
		from++
	}
	rest := s[from:]
	switch {
	case strings.HasPrefix(rest, `\"`):
		end := strings.Index(rest[2:], `\"`)
		if raw := strings.IndexByte(rest[2:], '"'); end < 0 || (raw >= 0 && raw < end) {
			end = raw
		}
		return quotedSpan(from+2, end, len(s))
	case strings.HasPrefix(rest, `"`), strings.HasPrefix(rest, `'`):
		return quotedSpan(from+1, closingQuote(rest[1:], rest[0]), len(s))
	case strings.HasPrefix(rest, "["):
		return from, from + listLen(rest)
	}
	return from, from + bareValueLen(rest)
}

// quotedSpan turns the offset of a closing quote (or -1) into a span.
func quotedSpan(lo, end, n int) (int, int) {
	if end < 0 {
		return lo, n
	}
	return lo, lo + end
}

// closingQuote returns the index of the first q in s not escaped by a
// backslash, or -1.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}

// bareValueLen returns the length of the unquoted value at the start of s.
// It ends at white space, quotes, markup brackets and separators, and at
// "&" or "?" even when percent-encoded (%26, %3F), so that a query string
// nested in an encoded redirect URL is still split into its parameters.
func bareValueLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c <= ' ' || strings.IndexByte(`&?"'<>,;`, c) >= 0:
			return i
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return i
			}
			if code := strings.ToUpper(s[i+1 : i+3]); code == "26" || code == "3F" {
				return i
			}
			i += 2
		}
	}
	return len(s)
}

// listLen returns the length of the bracketed list at the start of s,
// brackets included: header maps print a value as a list, Go's as
// map[X-Api-Key:[k1]] and JSON's as {"X-Api-Key":["k1"]}. A list holding an
// object or a list gives 0, so its own fields are looked at one by one; an
// unclosed list runs to the end of s, like an unterminated quoted value.
func listLen(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ']':
			return i + 1
		case '{', '[':
			return 0
		case '"':
			end := closingQuote(s[i+1:], '"')
			if end < 0 {
				return len(s)
			}
			i += end + 1
		case '\\':
			// A list inside a JSON string quotes its items with \".
			if !strings.HasPrefix(s[i:], `\"`) {
				i++
				continue
			}
			end := strings.Index(s[i+2:], `\"`)
			if end < 0 {
				return len(s)
			}
			i += end + 3
		}
	}
	return len(s)
}

// colonPairOK vetoes name:value pairs that are not fields. A URL scheme
// ("https://"), a URL's user name (scheme://token:...@host, the userinfo
// rule's) and a path's last segment ("/etc/passwd:") are not; and after "name: " with a space, a bare common word such
// as "token" is prose ("fetching token: dial tcp ..."), unless its value is
// quoted. valueStart is where the value's text starts, after any quote.
func colonPairOK(s string, sep, nameStart, valueStart int, name string) bool {
	if s[sep] != ':' {
		return true
	}
	if strings.HasPrefix(s[sep:], "://") || strings.HasSuffix(s[:nameStart], "://") {
		return false
	}
	// A name right after "/" is the last segment of a path, a file or a URL
	// ("open /etc/passwd: ..."): the text after its colon is the error.
	if nameStart > 0 && s[nameStart-1] == '/' {
		return false
	}
	quoted := valueStart > 0 && (s[valueStart-1] == '"' || s[valueStart-1] == '\'')
	if quoted {
		return true
	}
	// A nested JSON object ("auth": {"user": ...}) is not a value to hide;
	// its own fields are looked at one by one.
	if s[valueStart] == '{' {
		return false
	}
	spaced := valueStart > sep+1
	return !spaced || !bareColonNames[strings.ToLower(name)]
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
