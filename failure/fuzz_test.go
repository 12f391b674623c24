package failure

import (
	"strings"
	"testing"
)

// fuzzSeeds are messages that exercise every rule; more interesting inputs
// live in testdata/fuzz.
var fuzzSeeds = []string{
	"",
	"Authorization: Bearer abc.def-ghi_123",
	"https://user:p@ss@db.example.com:5432/app?api_key=abc&x=1",
	`{"password":"s3cr3t","body":"{\"token\":\"t0p\"}"}`,
	"POST /cb?redirect=https%3A%2F%2Fx%2F%3Fpassword%3Dhunter2%26a%3D1",
	"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
	"sk-proj-abcdefghijklmnopqrstuvwx ghp_abcdefghijklmnopqrstuvwxyz0123 AKIAIOSFODNN7EXAMPLE",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln Cookie: a=b; c=d",
	"HTTP 429 Too Many Requests",
	"dial tcp 127.0.0.1:9: connect: connection refused",
	"order 4291 POD-404 Not Found timeout_ms",
}

// FuzzRedact checks that Redact never panics, is idempotent, and grows a
// message by at most len(Redacted)-1 bytes per redaction.
func FuzzRedact(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		once := Redact(msg)
		if twice := Redact(once); twice != once {
			t.Fatalf("not idempotent:\n in: %q\nonce: %q\ntwice: %q", msg, once, twice)
		}
		added := strings.Count(once, Redacted) - strings.Count(msg, Redacted)
		if bound := len(msg) + max(added, 0)*(len(Redacted)-1); len(once) > bound {
			t.Fatalf("Redact grew %d bytes to %d, over the bound %d: %q -> %q", len(msg), len(once), bound, msg, once)
		}
	})
}

// FuzzClassifyMessage checks that ClassifyMessage never panics and always
// returns one of the seven codes.
func FuzzClassifyMessage(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if c := ClassifyMessage(msg); !c.Valid() {
			t.Fatalf("ClassifyMessage(%q) = %q, not a valid code", msg, c)
		}
	})
}

// FuzzSanitize checks the storage bound and that Sanitize output is valid
// UTF-8 for any message and secret.
func FuzzSanitize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "hunter2")
	}
	f.Fuzz(func(t *testing.T, msg, secret string) {
		got := Sanitize(msg, []string{secret})
		if len(got) > MaxMessageBytes {
			t.Fatalf("Sanitize returned %d bytes", len(got))
		}
		if len(strings.TrimSpace(secret)) >= MinSecretLen && len(msg) < MaxMessageBytes/4 && strings.Contains(got, strings.TrimSpace(secret)) && !strings.Contains(Redacted, strings.TrimSpace(secret)) {
			t.Fatalf("Sanitize(%q, %q) = %q still holds the secret", msg, secret, got)
		}
	})
}
