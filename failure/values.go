package failure

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// MinSecretLen is the shortest secret value RedactValues removes. Shorter
// values ("on", "yes", "gzip"-sized header values) would carve up ordinary
// words all over the message while hiding almost nothing, and are left to
// the pattern rules of Redact.
const MinSecretLen = 4

// authSchemes are the Authorization scheme words; a secret given as a whole
// header value ("Bearer abc...") is also removed without its scheme.
var authSchemes = []string{"bearer ", "basic ", "token ", "bot ", "apikey ", "key ", "digest "}

// RedactValues removes every occurrence of the given secret values from
// msg, then applies Redact. Callers pass the values they know are secret:
// an action's header values, a connector's credentials. Each value is also
// removed in the forms a message is likely to carry it in: query-escaped,
// path-escaped, JSON-escaped, base64-encoded (alone or inside a longer
// encoded value, see base64Forms), and without its Authorization scheme
// word.
// Values shorter than MinSecretLen bytes, after trimming spaces, are
// ignored.
func RedactValues(msg string, secrets []string) string {
	if olds := secretForms(secrets); len(olds) > 0 {
		pairs := make([]string, 0, 2*len(olds))
		for _, old := range olds {
			pairs = append(pairs, old, Redacted)
		}
		msg = strings.NewReplacer(pairs...).Replace(msg)
	}
	return Redact(msg)
}

// secretForms returns the distinct forms of secrets, longest first: a
// strings.Replacer tries its olds in argument order, so a secret that
// contains another is removed whole rather than leaving its tail behind.
func secretForms(secrets []string) []string {
	seen := make(map[string]bool)
	var forms []string
	add := func(v string) {
		if len(v) >= MinSecretLen && !seen[v] {
			seen[v] = true
			forms = append(forms, v)
		}
	}
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < MinSecretLen {
			continue
		}
		for _, v := range []string{s, url.QueryEscape(s), url.PathEscape(s), jsonEscape(s)} {
			add(v)
		}
		for _, v := range base64Forms(s) {
			add(v)
		}
		lower := strings.ToLower(s)
		for _, scheme := range authSchemes {
			if strings.HasPrefix(lower, scheme) {
				add(strings.TrimSpace(s[len(scheme):]))
			}
		}
	}
	sort.SliceStable(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	return forms
}

// jsonEscape returns s as it appears inside a JSON string.
func jsonEscape(s string) string {
	// Most secrets need no escaping; skip the encoder for them.
	if !strings.ContainsFunc(s, needsJSONEscape) {
		return s
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return s
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// needsJSONEscape reports whether encoding/json escapes r inside a string
// when HTML escaping is off.
func needsJSONEscape(r rune) bool {
	return r < 0x20 || r == '"' || r == '\\' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError
}
