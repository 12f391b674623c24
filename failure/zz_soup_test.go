package failure

import (
	"math/rand/v2"
	"strings"
	"testing"
)

var soup = []string{"password", "token", "api_key", "key", "sig", "=", ":", ": ", " ", "\"", "'", "\\\"", "&", "?", "%3D", "%3F", "%26", "%", "@", "://", "https", "user", "Bearer ", "bearer", "Basic ", "dXNlcjpwYXNz", "Authorization", "Cookie", "[REDACTED]", "REDACTED", "[", "]", "sk-", "sk-ant-", "proj-", "abcdefghijklmnopqrstu", "ghp_", "AKIA", "ABCDEFGHIJKLMNOP", "xoxb-", "AIza", "eyJ", "eyJabcd.", ".", "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "\n", "\\n", "abc", "123", "x-", "Api", "Key", "secret", "sk_live_", "github_pat_", "=\"", "a=b", ";", ",", "-", "_"}

func TestSoupIdempotent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for i := 0; i < 1000000; i++ {
		var b strings.Builder
		n := 1 + rng.IntN(10)
		for j := 0; j < n; j++ {
			b.WriteString(soup[rng.IntN(len(soup))])
		}
		msg := b.String()
		once := Redact(msg)
		if twice := Redact(once); twice != once {
			t.Fatalf("not idempotent:\n in: %q\nonce: %q\ntwice: %q", msg, once, twice)
		}
	}
}

func TestSoupPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 10))
	hist := map[int]int{}
	for i := 0; i < 1000000; i++ {
		var b strings.Builder
		n := 1 + rng.IntN(14)
		for j := 0; j < n; j++ {
			b.WriteString(soup[rng.IntN(len(soup))])
		}
		msg := b.String()
		passes := 0
		for {
			next := redactPass(msg)
			passes++
			if next == msg || passes > 20 { break }
			msg = next
		}
		hist[passes]++
	}
	t.Log(hist)
}
