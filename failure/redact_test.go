package failure

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		msg     string
		secrets []string // must be gone
		keep    []string // must stay
	}{
		{"bearer header", "Authorization: Bearer abc.def-ghi_123", []string{"abc.def-ghi_123"}, []string{"Authorization: Bearer [REDACTED]"}},
		{"upper-case BEARER", "AUTHORIZATION: BEARER Zm9vYmFy1234", []string{"Zm9vYmFy1234"}, []string{"AUTHORIZATION: BEARER [REDACTED]"}},
		{"bearer in a curl line", "curl -H 'authorization: bearer XyZ123456' https://x.example/a", []string{"XyZ123456"}, []string{"bearer [REDACTED]'", "https://x.example/a"}},
		{"bare bearer token", "sent bearer 9a8b7c6d5e4f with the call", []string{"9a8b7c6d5e4f"}, []string{"sent bearer [REDACTED] with the call"}},
		{"bearer JWT at end", "auth failed for Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", []string{"eyJhbGciOiJIUzI1NiJ9", "c2lnbmF0dXJl"}, []string{"auth failed for Bearer [REDACTED]"}},
		{"basic header", "Authorization: Basic dXNlcjpwYXNz was refused", []string{"dXNlcjpwYXNz"}, []string{"Authorization: Basic [REDACTED] was refused"}},
		{"basic without header", "sent basic YWRtaW46aHVudGVyMg== to host", []string{"YWRtaW46aHVudGVyMg"}, []string{"sent basic [REDACTED] to host"}},
		{"url password", "postgres://admin:hunter2@10.0.0.5/db failed", []string{"hunter2"}, []string{"postgres://admin:[REDACTED]@10.0.0.5/db failed"}},
		{"url password with @", "GET https://user:p@ss@db.example.com:5432/app?sslmode=require", []string{"p@ss", "ss@db"}, []string{"https://user:[REDACTED]@db.example.com:5432/app?sslmode=require"}},
		{"query api_key", "GET https://api.example.com/v1/items?api_key=abc123&page=2 failed", []string{"abc123"}, []string{"?api_key=[REDACTED]&page=2 failed"}},
		{"query secret at end", "GET https://h.example/cb?page=1&access_token=tok_98765", []string{"tok_98765"}, []string{"?page=1&access_token=[REDACTED]"}},
		{"several query secrets", "/x?sig=S1GNATURE&key=K3Y&Signature=SIG2&client_secret=CS", []string{"S1GNATURE", "K3Y", "SIG2", "=CS"}, []string{"sig=[REDACTED]&key=[REDACTED]&Signature=[REDACTED]&client_secret=[REDACTED]"}},
		{"url-encoded nested query", "POST /cb?redirect=https%3A%2F%2Fx.example%2F%3Fpassword%3Dhunter2%26a%3D1 failed", []string{"hunter2"}, []string{"%3Fpassword%3D[REDACTED]%26a%3D1 failed", "redirect=https%3A%2F%2Fx.example%2F"}},
		{"form body", "body: grant_type=client_credentials&client_id=app&client_secret=s3cr3t&scope=read", []string{"s3cr3t"}, []string{"client_id=app", "client_secret=[REDACTED]&scope=read"}},
		{"json body", `{"user":"bob","password":"s3cr3t!","nested":{"apiKey":"k-777"}}`, []string{"s3cr3t!", "k-777"}, []string{`"user":"bob"`, `"password":"[REDACTED]"`, `"apiKey":"[REDACTED]"`}},
		{"json with escaped quote", `{"password": "a\"b c", "n": 1}`, []string{`a\"b c`}, []string{`"password": "[REDACTED]", "n": 1`}},
		{"json cut off inside a value", `{"user":"bob","api_key":"k-abcdef0123`, []string{"k-abcdef0123"}, []string{`{"user":"bob","api_key":"[REDACTED]`}},
		{"nested json object", `{"auth": {"user": "bob", "password": "pw1"}}`, []string{"pw1"}, []string{`{"auth": {"user": "bob", "password": "[REDACTED]"}}`}},
		{"json inside a json string", `{"body":"{\"token\":\"t0ps3cr3t\"}"}`, []string{"t0ps3cr3t"}, []string{`\"token\":\"[REDACTED]\"`}},
		{"logfmt", `password=hunter2 user=bob pwd="two words"`, []string{"hunter2", "two words"}, []string{"password=[REDACTED] user=bob", `pwd="[REDACTED]"`}},
		{"go map", "map[apiKey:abcd1234 name:bob]", []string{"abcd1234"}, []string{"map[apiKey:[REDACTED] name:bob]"}},
		{"header dump", "X-Api-Key: 9f8e7d6c5b4a\nAccept: */*", []string{"9f8e7d6c5b4a"}, []string{"X-Api-Key: [REDACTED]\nAccept: */*"}},
		{"cookie header", "Cookie: session=abc123; theme=dark", []string{"abc123"}, []string{"Cookie: [REDACTED]"}},
		{"openai keys", "keys sk-proj-abcdefghijklmnopqrstuvwxyz0123 and sk-abcdefghijklmnop1234", []string{"abcdefghijklmnopqrstuvwxyz0123", "abcdefghijklmnop1234"}, []string{"keys sk-proj-[REDACTED] and sk-[REDACTED]"}},
		{"anthropic key", "x-api-key sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUV_wx-yz", []string{"ABCDEFGHIJKLMNOPQRSTUV"}, []string{"sk-ant-api03-[REDACTED]"}},
		{"aws key id", "aws AKIAIOSFODNN7EXAMPLE and ASIAY34FZKBOKMUTVV7A leaked", []string{"IOSFODNN7EXAMPLE", "Y34FZKBOKMUTVV7A"}, []string{"aws AKIA[REDACTED] and ASIA[REDACTED] leaked"}},
		{"github tokens", "ghp_abcdefghijklmnopqrstuvwxyz0123456789 github_pat_11ABCDEFG0123456789_abcdefghijklmnop", []string{"abcdefghijklmnopqrstuvwxyz0123456789", "11ABCDEFG"}, []string{"ghp_[REDACTED] github_pat_[REDACTED]"}},
		{"slack token", "slack said invalid_auth for xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp", []string{"123456789012", "AbCdEfGhIjKlMnOp"}, []string{"invalid_auth for xoxb-[REDACTED]"}},
		{"stripe keys", "sk_live_4eC39HqLyjWDarjtT1zdp7dc rk_live_abcdefghijk sk_test_abcdefghijk", []string{"4eC39HqLyjWDarjtT1zdp7dc", "abcdefghijk"}, []string{"sk_live_[REDACTED] rk_live_[REDACTED] sk_test_[REDACTED]"}},
		{"google key", "maps call with AIzaSyA-abcdefghijklmnopqrstuvwxyz12345 refused", []string{"SyA-abcdefghijklmnopqrstuvwxyz12345"}, []string{"maps call with AIza[REDACTED] refused"}},
		{"jwt", "id token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk expired", []string{"eyJzdWIiOiIxMjM0In0", "dBjftJeZ4CVP"}, []string{"id token [REDACTED] expired"}},
		{"pem block", "key -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc=\n-----END RSA PRIVATE KEY----- rejected", []string{"MIIEowIBAAKCAQEA", "abc="}, []string{"-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY----- rejected"}},
		{"pem block cut short", `{"pem":"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC`, []string{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"}, []string{"-----BEGIN PRIVATE KEY-----"}},
		{"userinfo token", "clone https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r.git failed", []string{"ghs_abcdef"}, []string{"https://x-access-token:[REDACTED]@github.com/o/r.git failed"}},
		{"go header map", "request headers map[Accept:[*/*] Authorization:[Bearer abc123] X-Api-Key:[k-9f8e7d]]", []string{"abc123", "k-9f8e7d"}, []string{"map[Accept:[*/*] Authorization:[Bearer [REDACTED]] X-Api-Key:[REDACTED]]"}},
		{"json header lists", `{"Authorization":["Bearer abc"],"X-Api-Key":["k1","k2"],"Accept":["*/*"]}`, []string{"abc", "k1", "k2"}, []string{`{"Authorization":["Bearer [REDACTED]"],"X-Api-Key":[REDACTED],"Accept":["*/*"]}`}},
		{"escaped json header list", `{"dump":"{\"Api-Key\":[\"k]1\"]}"}`, []string{"k]1"}, []string{`{\"Api-Key\":[REDACTED]}`}},
		{"list of objects", `{"auth":[{"user":"bob","password":"pw1"}]}`, []string{"pw1"}, []string{`"auth":[{"user":"bob","password":"[REDACTED]"}]`}},
		{"unclosed secret list", `{"token":["t0ps3cr3t`, []string{"t0ps3cr3t"}, []string{`{"token":[REDACTED]`}},
		{"go struct", "headers: {Authorization: Bearer abc}", []string{"abc"}, []string{"headers: {Authorization: Bearer [REDACTED]}"}},
		{"proxy authorization", "Proxy-Authorization: Basic dXNlcjpwYXNz", []string{"dXNlcjpwYXNz"}, []string{"Proxy-Authorization: Basic [REDACTED]"}},
		{"aws secret key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY; AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG", []string{"wJalrXUtnFEMI"}, []string{"aws_secret_access_key = [REDACTED]; AWS_SECRET_ACCESS_KEY: [REDACTED]"}},
		{"json secret fields", `{"secret": "s3", "client_secret": "cs1", "token": "tk", "apiKey": "ak"}`, []string{`"s3"`, "cs1", `"tk"`, `"ak"`}, []string{`{"secret": "[REDACTED]", "client_secret": "[REDACTED]", "token": "[REDACTED]", "apiKey": "[REDACTED]"}`}},
		{"github oauth and app tokens", "gho_abcdefghijklmnopqrstuvwxyz0123 ghs_abcdefghijklmnopqrstuvwxyz0123", []string{"abcdefghijklmnopqrstuvwxyz0123"}, []string{"gho_[REDACTED] ghs_[REDACTED]"}},
		{"stripe publishable and test keys", "pk_live_abcdefghijklmnop1234 (pk_test_abcdefghijklmnop1234)", []string{"abcdefghijklmnop1234"}, []string{"pk_live_[REDACTED] (pk_test_[REDACTED])"}},
		{"mixed", "POST https://bob:pw1234@h.example/x?token=abc&q=1 with Authorization: Bearer T0KEN99 and sk-abcdefghijklmnopqrst", []string{"pw1234", "abc&", "T0KEN99", "abcdefghijklmnopqrst"}, []string{"https://bob:[REDACTED]@h.example/x?token=[REDACTED]&q=1", "Bearer [REDACTED] and sk-[REDACTED]"}},
	}
	for _, tt := range tests {
		got := Redact(tt.msg)
		for _, s := range tt.secrets {
			if strings.Contains(got, s) {
				t.Errorf("%s: Redact(%q) = %q, still contains secret %q", tt.name, tt.msg, got, s)
			}
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("%s: Redact(%q) = %q, lost context %q", tt.name, tt.msg, got, k)
			}
		}
		if again := Redact(got); again != got {
			t.Errorf("%s: Redact is not idempotent: %q then %q", tt.name, got, again)
		}
	}
}

// Ordinary error text must come through untouched: over-redaction hides
// exactly the detail _lastNodeError exists to give.
func TestRedactLeavesOrdinaryText(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		"missing bearer token",
		`WWW-Authenticate: Bearer realm="example"`,
		"basic usage is fine",
		"fetching token: dial tcp 10.0.0.1:443: connection refused",
		"token: expired",
		"max_tokens=1500 exceeds the model limit",
		"monkey=banana&page=2",
		"password=",
		"task-abcdefghijklmnopqrstuvwxyz failed",
		"https://api.example.com:8443/v1/orders?page=2",
		"HTTP 404 Not Found: order 4291",
		"task-123 skeleton sketchy ask-me-anything-for-real-now sk-short",
		"desk_test_results_2024 risk_live_dashboard_v2 pk_live_",
		"map[Accept:[*/*] Content-Type:[application/json]] keys:[a b]",
		"missing key: [see docs] and monkey:[banana]",
		`{"auth": [{"user": "bob"}], "tags": ["a", "b"]}`,
		"Authorization: [REDACTED]",
		"akiaisnotakey AKIAshort AIzaTooShort",
		"eyJhbGciOiJIUzI1NiJ9 alone is only a header",
		"",
	} {
		if got := Redact(msg); got != msg {
			t.Errorf("Redact(%q) = %q, want it unchanged", msg, got)
		}
	}
}
