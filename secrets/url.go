package secrets

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/wetel/wetel/failure"
)

// URLCredential names the credential a URL holds, "" when it holds none: a
// user name or password ("a user name or password"), or a query parameter
// whose name looks secret (`the query parameter "api_key"`). A value that
// is a template ({{...}}) is not a credential yet: it is filled in when the
// call is made. A URL that does not parse holds none; its own check
// refuses it.
//
// A URL is stored in clear, shown back to every key of the workspace and
// copied into proxy logs and Referer headers, while headers are encrypted
// at rest and shown masked: so a credential in a URL is refused at save,
// with a message pointing to headers, rather than sealed in a second place.
func URLCredential(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if u.User != nil {
		return "a user name or password"
	}
	for _, pair := range strings.Split(u.RawQuery, "&") {
		name, value, _ := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if value != "" && !strings.Contains(value, "{{") && failure.IsSecretName(name) {
			return "the query parameter " + strconv.Quote(name)
		}
	}
	return ""
}

// MaskURL returns raw as it may be shown back: a password (or a user name
// given alone, as tokens are) and the values of query parameters whose
// names look secret become "****"; the rest stays byte for byte. It is for
// URLs stored before URLCredential was checked at save.
func MaskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.User == nil && !strings.Contains(u.RawQuery, "=")) {
		return raw
	}
	// url.URL escapes "*" in a user name or password, so the masked
	// userinfo is put back into the string instead.
	userinfo := ""
	if u.User != nil {
		userinfo = maskStars + "@"
		if _, ok := u.User.Password(); ok {
			userinfo = url.UserPassword(u.User.Username(), "").String() + maskStars + "@"
		}
		u.User = nil
	}
	pairs := strings.Split(u.RawQuery, "&")
	for i, pair := range pairs {
		name, value, ok := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(name); err == nil && ok && value != "" && failure.IsSecretName(n) {
			pairs[i] = name + "=" + maskStars
		}
	}
	u.RawQuery = strings.Join(pairs, "&")
	out := u.String()
	if userinfo != "" {
		out = strings.Replace(out, "//", "//"+userinfo, 1)
	}
	return out
}
