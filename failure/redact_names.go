package failure

import "strings"

// secretHeaderWords make a header secret when its name contains one of
// them anywhere. Masking a header for display can afford to be broad
// (X-Monkey-Id is masked too); Redact cannot, and uses isSecretName alone.
var secretHeaderWords = []string{"token", "secret", "key", "password", "passwd", "auth", "credential", "signature", "session", "cookie"}

// IsSecretHeader reports whether an HTTP header called name carries a
// credential whose value must be masked wherever it is shown back:
// Authorization, Proxy-Authorization, Cookie, X-Api-Key, every name that
// Redact treats as secret (api_key, pwd, sig, ...), and any name containing
// token, secret, key, password, auth, credential, signature or session, in
// any case.
// Rule: header credentials are "shown back masked".
func IsSecretHeader(name string) bool {
	if isSecretName(name) {
		return true
	}
	lower := strings.ToLower(name)
	for _, word := range secretHeaderWords {
		if strings.Contains(lower, word) {
			return true
		}
	}
	return false
}

// SplitAuthScheme splits an Authorization-style value into its scheme word
// with the spaces after it ("Bearer ", "Basic ") and the credential, so the
// scheme can stay readable while the credential is hidden. A value with no
// known scheme word is all credential: scheme is "".
func SplitAuthScheme(value string) (scheme, credential string) {
	for _, s := range authSchemes {
		if len(value) < len(s) || !strings.EqualFold(value[:len(s)], s) {
			continue
		}
		n := len(s)
		for n < len(value) && value[n] == ' ' {
			n++
		}
		return value[:n], value[n:]
	}
	return "", value
}
