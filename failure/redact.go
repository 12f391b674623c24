package failure

import (
	"regexp"
	"strings"
)

// Redacted is what a secret is replaced with. It contains none of the
// characters the rules take as part of a secret's value, except where a
// rule would replace it with itself, which is what makes Redact idempotent.
const Redacted = "[REDACTED]"

// redactRule replaces the text of the capture group named "s" in every
// match of re with Redacted; the rest of the match stays, so that the
// stored message still says which header, parameter or key type leaked.
type redactRule struct {
	re *regexp.Regexp
	// accept, when set, vetoes a match that the pattern alone cannot tell
	// from ordinary text.
	accept func(match) bool
	secret int // index of the "s" group
}

// match is one match of a rule's pattern, for accept functions.
type match struct {
	re   *regexp.Regexp
	text string
	idx  []int
}

// group returns the text of the named capture group, or "" when it did not
// take part in the match.
func (m match) group(name string) string {
	lo, hi := m.span(name)
	if lo < 0 {
		return ""
	}
	return m.text[lo:hi]
}

// span returns the byte offsets of the named capture group, -1 when absent.
func (m match) span(name string) (lo, hi int) {
	i := m.re.SubexpIndex(name)
	if i < 0 {
		return -1, -1
	}
	return m.idx[2*i], m.idx[2*i+1]
}

func newRule(pattern string, accept func(match) bool) redactRule {
	re := regexp.MustCompile(pattern)
	return redactRule{re: re, accept: accept, secret: re.SubexpIndex("s")}
}

func (r redactRule) apply(s string) string {
	matches := r.re.FindAllStringSubmatchIndex(s, -1)
	if matches == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		lo, hi := m[2*r.secret], m[2*r.secret+1]
		if lo < last || hi <= lo || (r.accept != nil && !r.accept(match{r.re, s, m})) {
			continue
		}
		b.WriteString(s[last:lo])
		b.WriteString(Redacted)
		last = hi
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Values of name=value pairs end at whitespace, quotes, brackets of markup,
// separators and at "&" or "?" even when percent-encoded (%26, %3F), so a
// query string nested in an encoded redirect URL is still split into its
// parameters.
const paramValue = `(?:[^\s&?"'<>,;%]|%(?:[014-9A-Fa-f][0-9A-Fa-f]|2[0-57-9A-Fa-f]|3[0-9A-Ea-e]))+`

// structureRules find secrets by where they sit, in the order they run.
var structureRules = []redactRule{
	// Rule: redact "PEM private key blocks", keeping the BEGIN/END lines.
	newRule(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<s>[\s\S]*?)-----END [A-Z0-9 ]*PRIVATE KEY-----`, nil),
	// A block cut off before its END line (a truncated body) still hides
	// its base64 body, with literal "\n" escapes from JSON.
	newRule(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<s>[A-Za-z0-9+/=\s\\]*[A-Za-z0-9+/=])`, nil),
	// Rule: redact "passwords in URLs": scheme://user:pass@host. The value
	// runs to the last "@" before the path, so a raw "@" in the password
	// does not leak its tail.
	newRule(`(?i)\b[a-z][a-z0-9+.\-]*://[^\s/?#@:"'<>]*:(?P<s>[^\s/?#"'<>]*)@`, nil),
	// Rule: redact Authorization headers, keeping the scheme word.
	newRule(`(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|apikey|api-key|bot|key|sso-key|dpop|negotiate|ntlm|hawk|aws4-hmac-sha256)\s+)?(?P<s>[^\s"',;]+)`, nil),
	// Rule: redact "bearer tokens", in any case. A plain lower-case word
	// after "bearer" is prose ("invalid bearer token"), not a credential.
	newRule(`(?i)\bbearer\s+(?P<s>[A-Za-z0-9\-._~+/]+=*)`, acceptBearer),
	// Rule: redact Basic auth credentials: base64 of "user:password".
	newRule(`(?i)\bbasic\s+(?P<s>[A-Za-z0-9+/]{4,}={0,2})`, acceptBasic),
	// Session cookies are credentials; a cookie header is recognised by
	// the name=value pair that follows it, not by the word alone.
	newRule(`(?i)\b(?:set-)?cookie\s*:\s*(?P<s>[^\s=;"',\\]+=[^\r\n"'\\]*)`, nil),
	// Rule: redact secret-named fields with a quoted value:
	// "password": "...", password="...", 'api_key': '...'.
	newRule(`(?P<name>[A-Za-z0-9_.\-]+)["']?\s*[:=]\s*"(?P<s>(?:[^"\\]|\\.)+)"`, acceptName),
	newRule(`(?P<name>[A-Za-z0-9_.\-]+)["']?\s*[:=]\s*'(?P<s>(?:[^'\\]|\\.)+)'`, acceptName),
	// The same inside a JSON document embedded in a JSON string.
	newRule(`(?P<name>[A-Za-z0-9_.\-]+)\\"\s*:\s*\\"(?P<s>(?:[^"\\]|\\[^"])+)\\"`, acceptName),
	// Rule: redact "query/form parameters whose name looks secret",
	// including percent-encoded ones (%3Fapi_key%3D...).
	newRule(`(?:%[0-9A-Fa-f]{2})?(?P<name>[A-Za-z0-9_.\-]+)(?:\s*=\s*|%3[Dd])(?P<s>`+paramValue+`)`, acceptName),
	// Unquoted name:value pairs (Go maps, header dumps, YAML); see
	// acceptColonName for which names count.
	newRule(`(?P<name>[A-Za-z0-9_.\-]+)(?P<sep>:[ \t]*)(?P<s>`+paramValue+`)`, acceptColonName),
}

// redactPasses bounds how often Redact runs its rules over a message. A
// pass can expose a new match to an earlier rule (a name whose value the
// pass just replaced now sits next to another separator), so the rules run
// until nothing changes; in practice that takes two passes, three at most.
const redactPasses = 8

// Redact returns msg with every recognisable secret replaced by Redacted,
// keeping enough context to debug ("Authorization: Bearer [REDACTED]",
// "https://user:[REDACTED]@host/", "?api_key=[REDACTED]&page=2",
// "sk-proj-[REDACTED]"). It is idempotent, and each replacement adds at most
// len(Redacted)-1 bytes.
func Redact(msg string) string {
	for range redactPasses {
		next := msg
		for _, r := range structureRules {
			next = r.apply(next)
		}
		for _, r := range keyFormatRules {
			next = r.apply(next)
		}
		if next == msg {
			break
		}
		msg = next
	}
	return msg
}
