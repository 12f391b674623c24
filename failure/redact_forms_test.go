package failure

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// A held secret given as a "scheme value" header is removed part by part:
// a partner that echoes the bare token, without "Bearer ", in any of the
// encodings a message carries it in, shows none of it.
func TestRedactValuesEncodedBareToken(t *testing.T) {
	t.Parallel()
	const token = "Zk9+r/Q2xYz==opaque-7"
	held := []string{"Bearer " + token}
	std, rawStd := base64.StdEncoding.EncodeToString, base64.RawStdEncoding.EncodeToString
	urlEnc, rawURL := base64.URLEncoding.EncodeToString, base64.RawURLEncoding.EncodeToString
	forms := map[string]string{
		"plain":              token,
		"query-escaped":      url.QueryEscape(token),
		"lower-case escapes": strings.NewReplacer("%2B", "%2b", "%2F", "%2f", "%3D", "%3d").Replace(url.QueryEscape(token)),
		"path-escaped":       url.PathEscape(token),
		"json-escaped slash": strings.ReplaceAll(token, "/", `\/`),
		"base64 std":         std([]byte(token)),
		"base64 std raw":     rawStd([]byte(token)),
		"base64 url":         urlEnc([]byte(token)),
		"base64 url raw":     rawURL([]byte(token)),
		"base64 in a pair":   std([]byte("svc:" + token)),
		"base64 offset 2":    rawURL([]byte("ab" + token + "!")),
	}
	for name, form := range forms {
		msg := `upstream said: {"echo":"` + form + `"} (HTTP 401)`
		got := RedactValues(msg, held)
		if !strings.Contains(got, Redacted) || strings.Contains(got, form) {
			t.Errorf("%s: RedactValues(%q) = %q, want the token's %s form removed", name, msg, got, name)
		}
		if !strings.Contains(got, "(HTTP 401)") {
			t.Errorf("%s: RedactValues(%q) = %q lost the context", name, msg, got)
		}
	}
}

// A Basic credential is held as base64 of user:password; the password
// echoed alone, plain or encoded, is removed too.
func TestRedactValuesBasicParts(t *testing.T) {
	t.Parallel()
	const password = "Tr0ub4<dor&3x"
	held := []string{"Basic " + base64.StdEncoding.EncodeToString([]byte("svc-user:"+password))}
	for _, form := range []string{password, url.QueryEscape(password), `Tr0ub4\u003cdor\u00263x`, base64.StdEncoding.EncodeToString([]byte(password))} {
		msg := "login failed for " + form + " at the gateway"
		got := RedactValues(msg, held)
		if strings.Contains(got, form) {
			t.Errorf("RedactValues(%q) = %q still holds %q", msg, got, form)
		}
	}
}

// Every part of a held value with several words ("Token abc, realm=x")
// that is long enough is a secret of its own.
func TestRedactValuesEachPart(t *testing.T) {
	t.Parallel()
	held := []string{"Digest username-token-5551 nonce-value-7777"}
	got := RedactValues("echo: "+base64.StdEncoding.EncodeToString([]byte("nonce-value-7777")), held)
	if strings.Contains(got, strings.TrimRight(base64.StdEncoding.EncodeToString([]byte("nonce-value-7777")), "=")) {
		t.Errorf("RedactValues left the encoded second part: %q", got)
	}
}

// A path segment is not a field name: "/etc/passwd: ..." names a file, and
// the word after it is the error, not a password.
func TestRedactKeepsPathBeforeColon(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		`file:///etc/passwd: scheme "file" is not allowed`,
		`GET file:///etc/passwd: unsupported protocol scheme "file"`,
		`open /run/secrets/token: permission denied`,
		`GET https://h.example/api/key: 404 Not Found`,
	} {
		if got := Redact(msg); got != msg {
			t.Errorf("Redact(%q) = %q, want it unchanged", msg, got)
		}
	}
	// A field still counts after a path: only the name right after "/" is a
	// file.
	if got := Redact("config /etc/app.conf password: hunter2"); strings.Contains(got, "hunter2") {
		t.Errorf("Redact kept a password after a path: %q", got)
	}
}
