package secrets

import (
	"strings"

	"github.com/wetel/wetel/failure"
)

// maskStars stands in for the hidden part of a value. It has a fixed
// length, so the mask does not tell how long the secret is.
const maskStars = "****"

// Mask thresholds: the last maskTail characters of a credential of at
// least maskShowFrom characters stay visible, enough to tell two keys
// apart (as API dashboards do) while hiding all but a few of a long
// random credential's characters. A shorter credential is all stars.
const (
	maskShowFrom = 12
	maskTail     = 4
)

// Mask returns value as it may be shown back to a user: the scheme word of
// an Authorization-style value ("Bearer ", "Token ") stays, and so do the
// last 4 characters of a credential at least 12 characters long; the rest
// is replaced by a fixed "****". "Bearer sk-proj-abcdefgh1234" becomes
// "Bearer ****1234" and "hunter2" becomes "****". A Basic credential is
// always all stars: it is base64 of user:password, and its tail would spell
// the end of the password. An empty value stays empty, which tells the
// user it is not set.
// Rule: credentials are "shown back masked".
func Mask(value string) string {
	if value == "" {
		return ""
	}
	scheme, cred := failure.SplitAuthScheme(value)
	if cred == "" {
		// A scheme word alone ("Bearer ") is masked like any short value.
		return maskStars
	}
	runes := []rune(cred)
	isBasic := strings.EqualFold(strings.TrimSpace(scheme), "basic")
	if len(runes) < maskShowFrom || isBasic {
		return scheme + maskStars
	}
	return scheme + maskStars + string(runes[len(runes)-maskTail:])
}

// MaskHeaders returns a copy of headers with the value of every header
// whose name looks secret masked by Mask: Authorization, Cookie, X-Api-Key
// and any name containing token, secret, key, password or auth (see
// failure.IsSecretHeader). Other values are copied as they are. A nil map
// gives nil.
func MaskHeaders(headers map[string]string) map[string]string {
	if headers == nil {
		return nil
	}
	out := make(map[string]string, len(headers))
	for name, value := range headers {
		if failure.IsSecretHeader(name) {
			value = Mask(value)
		}
		out[name] = value
	}
	return out
}
