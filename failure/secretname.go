package failure

import (
	"encoding/base64"
	"strings"
)

// secretNames are parameter and field names, lower-cased with "-", "_"
// and "." removed, whose value is a credential.
// Rule: names that "look secret": token, access_token, api_key, apikey,
// key, secret, password, passwd, pwd, signature, sig, auth, client_secret.
var secretNames = map[string]bool{
	"token": true, "accesstoken": true, "refreshtoken": true, "idtoken": true,
	"authtoken": true, "sessiontoken": true, "securitytoken": true, "apitoken": true,
	"privatetoken": true, "apikey": true, "key": true, "secret": true,
	"clientsecret": true, "secretkey": true, "privatekey": true, "secretaccesskey": true,
	"password": true, "passwd": true, "pwd": true, "pass": true, "passphrase": true,
	"signature": true, "sig": true, "auth": true, "credential": true,
	"credentials": true, "cookie": true, "setcookie": true, "sessionid": true,
}

// secretSuffixes make a compound name secret when they end it after a
// separator or a camel-case hump: refresh_token, X-Goog-Api-Key, clientSecret.
var secretSuffixes = []string{"token", "key", "secret", "password", "passwd", "pwd", "signature", "sig", "auth", "credential", "credentials"}

// bareColonNames are the names too common in prose to redact after
// "name: " with a space ("fetching token: dial tcp ..."); they still count
// in name=value, name:value and quoted forms.
var bareColonNames = map[string]bool{"token": true, "key": true, "auth": true, "sig": true, "signature": true, "credentials": true, "credential": true, "cookie": true}

// nameSeparators are dropped from a name before looking it up in
// secretNames, so api_key, api-key and Api.Key are one name.
var nameSeparators = strings.NewReplacer("-", "", "_", "", ".", "")

// isSecretName reports whether a parameter or field called name holds a
// credential. Authorization is left to its own rule, which keeps the
// scheme word.
func isSecretName(name string) bool {
	lower := strings.ToLower(name)
	if secretNames[nameSeparators.Replace(strings.TrimPrefix(lower, "x-"))] {
		return true
	}
	for _, suffix := range secretSuffixes {
		cut := len(lower) - len(suffix)
		if cut <= 0 || lower[cut:] != suffix {
			continue
		}
		if strings.IndexByte("-_.", lower[cut-1]) >= 0 {
			return true
		}
		// A camel-case hump: apiKey, accessToken, but not monkey or MONKEY.
		if isUpperASCII(name[cut]) && !isUpperASCII(name[cut-1]) {
			return true
		}
	}
	return false
}

func isUpperASCII(b byte) bool { return 'A' <= b && b <= 'Z' }

// acceptBearer skips "bearer" followed by an ordinary lower-case word
// ("bearer token", "bearer realm"); generated tokens mix in digits, capitals
// or punctuation, or are longer than words get.
func acceptBearer(m match) bool {
	if !wordStart(m) {
		return false
	}
	token := strings.TrimRight(m.group("s"), "=")
	if len(token) >= 20 {
		return true
	}
	return strings.IndexFunc(token, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0
}

// acceptBasic accepts "Basic <base64>" only when the base64 decodes to
// user:password, so the English word "basic" followed by text is left.
func acceptBasic(m match) bool {
	if !wordStart(m) {
		return false
	}
	raw := m.group("s")
	decoded, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		decoded, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(raw, "="))
	}
	return err == nil && strings.IndexByte(string(decoded), ':') > 0
}

// IsSecretName reports whether a query parameter or field called name
// holds a credential by the names Redact knows (api_key, access_token,
// password, sig, clientSecret, ...). It is narrower than IsSecretHeader:
// "monkey" or "keyword" are not secret names.
func IsSecretName(name string) bool { return isSecretName(name) }
