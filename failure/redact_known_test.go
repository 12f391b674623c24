package failure

import (
	"encoding/base64"
	"strings"
	"testing"
)

// A known secret echoed back base64-encoded, alone or inside a longer
// encoded value, is removed like the secret itself.
func TestRedactValuesBase64(t *testing.T) {
	t.Parallel()
	const secret = "plain-Orange-42" // matches no pattern rule
	std := base64.StdEncoding.EncodeToString
	url := base64.RawURLEncoding.EncodeToString
	for _, msg := range []string{
		"upstream echoed " + std([]byte(secret)) + " back",
		"cursor " + url([]byte(secret+"?~>")) + " is stale",
		"Proxy said: " + std([]byte("svc:"+secret)),       // offset 1 in its group
		"Proxy said: " + std([]byte("svc1:"+secret)),      // offset 2
		"Proxy said: " + std([]byte("svc12:"+secret+"!")), // offset 0, more after
		`{"blob":"` + std([]byte(`{"key":"`+secret+`","n":1}`)) + `"}`,
	} {
		got := RedactValues(msg, []string{secret})
		if !strings.Contains(got, Redacted) {
			t.Errorf("RedactValues(%q) = %q, want the encoded secret redacted", msg, got)
		}
		for _, form := range []string{std([]byte(secret)), url([]byte(secret))} {
			if strings.Contains(got, strings.TrimRight(form, "=")) {
				t.Errorf("RedactValues(%q) = %q still holds %q", msg, got, form)
			}
		}
	}
}

func TestBase64FormsSkipShortFragments(t *testing.T) {
	t.Parallel()
	for _, f := range base64Forms("abcd") {
		if len(f) < minBase64Form {
			t.Errorf("base64Forms(abcd) has %q, shorter than %d", f, minBase64Form)
		}
	}
	// Base64 of other text must come through: only the secret's characters go.
	other := base64.StdEncoding.EncodeToString([]byte("order 4291 is not active"))
	if got := RedactValues("body "+other, []string{"plain-Orange-42"}); got != "body "+other {
		t.Errorf("RedactValues redacted unrelated base64: %q", got)
	}
}

func TestIsSecretHeader(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"Authorization": true, "proxy-authorization": true, "Cookie": true, "Set-Cookie": true,
		"X-Api-Key": true, "api_key": true, "X-Auth-Token": true, "X-Client-Secret": true,
		"x-goog-api-key": true, "Private-Token": true, "X-Session-Id": true, "DB_PASSWORD": true,
		"Ocp-Apim-Subscription-Key": true, "X-Amz-Security-Token": true, "X-Signature": true,
		"Content-Type": false, "Accept": false, "X-Tenant": false, "User-Agent": false,
		"X-Request-Id": false, "": false,
	} {
		if got := IsSecretHeader(name); got != want {
			t.Errorf("IsSecretHeader(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSplitAuthScheme(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, scheme, cred string }{
		{"Bearer sk-abc", "Bearer ", "sk-abc"},
		{"basic  dXNlcjpwYXNz", "basic  ", "dXNlcjpwYXNz"},
		{"TOKEN t", "TOKEN ", "t"},
		{"sk-abc", "", "sk-abc"},
		{"Bearer", "", "Bearer"},
		{"Bearerx abc", "", "Bearerx abc"},
		{"", "", ""},
	} {
		scheme, cred := SplitAuthScheme(tt.in)
		if scheme != tt.scheme || cred != tt.cred {
			t.Errorf("SplitAuthScheme(%q) = %q, %q; want %q, %q", tt.in, scheme, cred, tt.scheme, tt.cred)
		}
	}
}
