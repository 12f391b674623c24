package failure

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
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

// redactFragments are the pieces the rules react to. Random strings of
// them reach rule interactions that byte-level fuzzing finds only slowly,
// such as one rule's output reading as another rule's input.
var redactFragments = []string{
	"password", "token", "api_key", "key", "sig", "=", ":", ": ", " ", `"`, "'", `\"`, "&", "?",
	"%3D", "%3F", "%26", "%", "@", "://", "https", "user", "Bearer ", "bearer", "Basic ",
	"dXNlcjpwYXNz", "Authorization", "Cookie", Redacted, "REDACTED", "[", "]", "sk-", "sk-ant-",
	"proj-", "abcdefghijklmnopqrstu", "ghp_", "AKIA", "ABCDEFGHIJKLMNOP", "xoxb-", "AIza", "eyJ",
	"eyJabcd.", ".", "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "\n", `\n`,
	"abc", "123", "x-", "Api", "Key", "secret", "sk_live_", "github_pat_", `="`, "a=b", ";", ",", "-", "_",
}

func TestRedactIdempotentOnFragments(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 9))
	for range 50_000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(redactFragments[rng.IntN(len(redactFragments))])
		}
		msg := b.String()
		once := Redact(msg)
		if twice := Redact(once); twice != once {
			t.Fatalf("not idempotent:\n  in: %q\nonce: %q\ntwice: %q", msg, once, twice)
		}
	}
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

// FuzzSanitize checks the storage bound, that the output is valid UTF-8,
// and that a given secret value does not survive.
func FuzzSanitize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "hunter2")
	}
	f.Fuzz(func(t *testing.T, msg, secret string) {
		got := Sanitize(msg, []string{secret})
		if len(got) > MaxMessageBytes || !utf8.ValidString(got) {
			t.Fatalf("Sanitize(%q) = %q: %d bytes, valid UTF-8 %v", msg, got, len(got), utf8.ValidString(got))
		}
		secret = strings.TrimSpace(secret)
		// Text next to a marker can spell a "secret" that was never in the
		// message ("=[RE"), so only secrets without marker characters count.
		checkable := len(secret) >= MinSecretLen && utf8.ValidString(secret) && !strings.ContainsAny(secret, "[]…")
		if checkable && strings.Contains(got, secret) {
			t.Fatalf("Sanitize(%q, %q) = %q still holds the secret", msg, secret, got)
		}
	})
}
