package failure

import (
	"encoding/base64"
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
// an action's header values, a connector's credentials. Each value, and
// each part of it (see secretParts: the credential of "Bearer x" alone, the
// words of a value with several, the password inside a Basic credential),
// is also removed in the forms a message is likely to carry it in:
// query-escaped and path-escaped (upper or lower-case hex), JSON-escaped
// (with or without HTML escapes and "\/"), base64-encoded in either
// alphabet, padded or not, alone or inside a longer encoded value (see
// base64Forms).
// Values and parts shorter than MinSecretLen bytes, after trimming spaces,
// are ignored.
func RedactValues(msg string, secrets []string) string {
	if r := secretReplacer(secrets); r != nil {
		msg = r.Replace(msg)
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
		for _, part := range secretParts(s) {
			for _, v := range textForms(part) {
				add(v)
			}
			for _, v := range base64Forms(part) {
				add(v)
			}
		}
	}
	sort.SliceStable(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	return forms
}

// secretParts returns the pieces of a held value that a partner may echo
// on their own: the whole value; without its Authorization scheme word the
// credential ("Bearer x" gives x); each white-space or comma separated word
// of that credential; and for a Basic credential the decoded "user:password"
// and the password.
// Rule: redact "each part of a scheme value header".
func secretParts(value string) []string {
	value = strings.TrimSpace(value)
	if len(value) < MinSecretLen {
		return nil
	}
	parts := []string{value}
	scheme, cred := SplitAuthScheme(value)
	cred = strings.TrimSpace(cred)
	if scheme != "" {
		parts = append(parts, cred)
	}
	words := strings.FieldsFunc(cred, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
	if len(words) > 1 {
		parts = append(parts, words...)
	}
	if strings.EqualFold(strings.TrimSpace(scheme), "basic") {
		if pair, err := base64.StdEncoding.DecodeString(cred); err == nil {
			if _, pw, ok := strings.Cut(string(pair), ":"); ok {
				parts = append(parts, string(pair), pw)
			}
		}
	}
	return parts
}

// textForms returns s as it is written plain, URL-escaped and JSON-escaped.
func textForms(s string) []string {
	forms := []string{s, url.QueryEscape(s), url.PathEscape(s), jsonEscape(s, false), jsonEscape(s, true)}
	for _, f := range forms[1:3] {
		if lower := lowerHex(f); lower != f {
			forms = append(forms, lower)
		}
	}
	if strings.Contains(s, "/") {
		// PHP and some Java encoders write "/" as "\/".
		forms = append(forms, strings.ReplaceAll(jsonEscape(s, false), "/", `\/`))
	}
	return forms
}

// lowerHex lower-cases the hex digits of the percent escapes in s.
func lowerHex(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if 'A' <= b[j] && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
			i += 2
		}
	}
	return string(b)
}

// jsonEscape returns s as it appears inside a JSON string; html adds the
// \u003c, \u003e and \u0026 escapes of encoding/json's default.
func jsonEscape(s string, html bool) string {
	// Most secrets need no escaping; skip the encoder for them.
	if !strings.ContainsFunc(s, needsJSONEscape) && (!html || !strings.ContainsAny(s, "<>&")) {
		return s
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
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
