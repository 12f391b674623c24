package failure

import (
	"regexp"
	"strings"
)

// Redacted is what a secret is replaced with.
const Redacted = "[REDACTED]"

// redactRule replaces the text of the capture group named "s" in every
// match of re with Redacted; the rest of the match stays, so that the
// stored message still says which header, URL or key type leaked.
type redactRule struct {
	re *regexp.Regexp
	// folded rules are written in lower case and run on the message with
	// its ASCII letters lower-cased. That is how they match in any case:
	// Go's regexp finds a literal prefix quickly, which (?i) would lose.
	folded bool
	// accept, when set, vetoes a match that the pattern alone cannot tell
	// from ordinary text.
	accept func(match) bool
	secret int // index of the "s" group
}

func newRule(pattern string, accept func(match) bool) redactRule {
	re := regexp.MustCompile(pattern)
	return redactRule{re: re, accept: accept, secret: re.SubexpIndex("s")}
}

// newFoldedRule returns a rule that matches in any case; see folded.
func newFoldedRule(pattern string, accept func(match) bool) redactRule {
	r := newRule(pattern, accept)
	r.folded = true
	return r
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
	i := m.re.SubexpIndex(name)
	if i < 0 || m.idx[2*i] < 0 {
		return ""
	}
	return m.text[m.idx[2*i]:m.idx[2*i+1]]
}

// wordStart accepts a match that does not continue a word, for patterns
// that start with a literal instead of \b so that Go's regexp can search
// for the literal: "sk-" must not match inside "task-".
func wordStart(m match) bool {
	return m.idx[0] == 0 || !isWordByte(m.text[m.idx[0]-1])
}

// acceptStripe accepts "k_live_" or "k_test_" only as the tail of a whole
// sk_, rk_ or pk_ prefix: "desk_test_..." and "task_live_..." are not keys.
func acceptStripe(m match) bool {
	at := m.idx[0]
	if at == 0 || strings.IndexByte("spr", m.text[at-1]) < 0 {
		return false
	}
	return at == 1 || !isWordByte(m.text[at-2])
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// apply redacts every accepted match in s; folded is s with its ASCII
// letters lower-cased, byte for byte.
func (r redactRule) apply(s, folded string) string {
	text := s
	if r.folded {
		text = folded
	}
	matches := r.re.FindAllStringSubmatchIndex(text, -1)
	var b strings.Builder
	last := 0
	for _, m := range matches {
		lo, hi := m[2*r.secret], m[2*r.secret+1]
		if lo < last || hi <= lo || s[lo:hi] == Redacted || (r.accept != nil && !r.accept(match{r.re, s, m})) {
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

// headerRules find secrets by the header, URL or block they sit in, in the
// order they run.
var headerRules = []redactRule{
	// Rule: redact "PEM private key blocks", keeping the BEGIN/END lines.
	newRule(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<s>[\s\S]*?)-----END [A-Z0-9 ]*PRIVATE KEY-----`, nil),
	// A block cut off before its END line (a truncated body) still hides
	// its base64 body, with literal "\n" escapes from JSON.
	newRule(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<s>[A-Za-z0-9+/=\s\\]*[A-Za-z0-9+/=])`, nil),
	// Rule: redact "passwords in URLs": scheme://user:pass@host. The value
	// runs to the last "@" before the path, so a raw "@" in the password
	// does not leak its tail.
	newRule(`://[^\s/?#@:"'<>]*:(?P<s>[^\s/?#"'<>]*)@`, nil),
	// Rule: redact Authorization headers (and Proxy-Authorization),
	// keeping the scheme word. Header maps print their values in brackets,
	// Go's as map[Authorization:[Bearer x]] and JSON's as
	// {"Authorization":["Bearer x"]}; the lazy \[?? steps into the list
	// only when it must, so a value already reading [REDACTED] is seen whole
	// and left alone. The value stops at brackets and braces, which no
	// credential holds, so the structure around it survives.
	newFoldedRule(`authorization["']?\s*[:=]\s*\[??["']?(?:(?:bearer|basic|token|digest|apikey|api-key|bot|key|sso-key|dpop|negotiate|ntlm|hawk|aws4-hmac-sha256)\s+)?(?P<s>\[redacted\]|[^\s"',;\[\]{}]+)`, wordStart),
	// Rule: redact "bearer tokens", in any case.
	newFoldedRule(`bearer\s+(?P<s>[a-z0-9\-._~+/]+=*)`, acceptBearer),
	// Rule: redact Basic auth credentials: base64 of "user:password".
	newFoldedRule(`basic\s+(?P<s>[a-z0-9+/]{4,}={0,2})`, acceptBasic),
	// Session cookies are credentials; a cookie header is recognised by
	// the name=value pair that follows it, not by the word alone.
	newFoldedRule(`cookie\s*:\s*(?P<s>[^\s=;"',\\]+=[^\r\n"'\\]*)`, wordStart),
}

// keyFormatRules recognise credentials by their vendor's format wherever
// they appear, with no name or header around them. The vendor prefix stays
// so a reader can tell which credential leaked; the minimum lengths keep
// "sk-[REDACTED]" and similar from matching again. Each pattern starts with
// a literal, which Go's regexp searches for quickly, and wordStart stands
// in for a leading \b.
var keyFormatRules = []redactRule{
	// Rule: redact "OpenAI-style sk-..., sk-proj-..., Anthropic sk-ant-...".
	newRule(`sk-(?:(?:ant|proj|svcacct|admin)-)?(?:(?:api|admin)\d\d-)?(?P<s>[A-Za-z0-9_\-]{16,})`, wordStart),
	// Rule: redact "Stripe sk_live_/rk_live_/pk_live_" secret, restricted
	// and publishable keys, live or test. One rule searches for the shared
	// "k_" and acceptStripe checks the letter before it: a leading class
	// such as [spr] would cost the literal search.
	newRule(`k_(?:live|test)_(?P<s>[A-Za-z0-9]{10,})`, acceptStripe),
	// Rule: redact "AWS AKIA/ASIA access key ids".
	newRule(`AKIA(?P<s>[A-Z0-9]{16})\b`, wordStart),
	newRule(`ASIA(?P<s>[A-Z0-9]{16})\b`, wordStart),
	// Rule: redact "GitHub ghp_/gho_/ghu_/ghs_/ghr_" tokens.
	newRule(`gh[pousr]_(?P<s>[A-Za-z0-9]{20,})`, wordStart),
	// Rule: redact GitHub fine-grained "github_pat_" tokens.
	newRule(`github_pat_(?P<s>[A-Za-z0-9_]{20,})`, wordStart),
	// Rule: redact "Slack xox[abprs]-..." tokens.
	newRule(`xox[abprs]-(?P<s>[A-Za-z0-9\-]{10,})`, wordStart),
	// Rule: redact "Google AIza..." API keys.
	newRule(`AIza(?P<s>[0-9A-Za-z_\-]{30,})`, wordStart),
	// Rule: redact "JWTs (three base64url segments starting eyJ)"; the
	// signature may be empty for an unsigned token.
	newRule(`(?P<s>eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]*)`, wordStart),
}

// redactPasses bounds how often Redact runs its rules over a message. A
// pass can expose a new match to an earlier rule (a value it just replaced
// now reads as part of a longer one), so the rules run until nothing
// changes; in practice that takes two passes, three at most.
const redactPasses = 8

// Redact returns msg with every recognisable secret replaced by Redacted,
// keeping enough context to debug ("Authorization: Bearer [REDACTED]",
// "https://user:[REDACTED]@host/", "?api_key=[REDACTED]&page=2",
// "sk-proj-[REDACTED]"). It is idempotent, and each replacement adds at most
// len(Redacted)-1 bytes.
func Redact(msg string) string {
	for range redactPasses {
		next := redactPass(msg)
		if next == msg {
			break
		}
		msg = next
	}
	return msg
}

func redactPass(s string) string {
	folded := foldASCII(s)
	for _, r := range headerRules {
		if next := r.apply(s, folded); next != s {
			s, folded = next, foldASCII(next)
		}
	}
	s = redactPairs(s)
	for _, r := range keyFormatRules {
		s = r.apply(s, "")
	}
	return s
}

// foldASCII lower-cases the ASCII letters of s, keeping every byte offset.
func foldASCII(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })
	if i < 0 {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}
