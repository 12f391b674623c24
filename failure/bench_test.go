package failure

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// benchMessage is a 500-byte failure message of the kind Sanitize sees: a
// wrapped HTTP error with a URL, a header dump and part of a JSON body,
// carrying four secrets.
var benchMessage = func() string {
	msg := `calling action 41 (submit-claim): POST "https://claims.example.com/v1/claims?api_key=abc123def456&tenant=acme": ` +
		`HTTP 422 Unprocessable Entity; request headers: Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl, ` +
		`Content-Type: application/json; response body: {"error":{"code":"invalid_claim","message":"policy number 88-1234 is not active",` +
		`"details":[{"field":"policy","issue":"expired"}],"debug":{"upstream":"postgres://svc:hunter2@10.0.0.5/claims"}}}`
	return msg + strings.Repeat(" ", max(0, 500-len(msg)))
}()

func BenchmarkRedact(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchMessage)))
	for b.Loop() {
		Redact(benchMessage)
	}
}

// BenchmarkRedactClean measures the common case of a message with no
// secret in it, where one pass over the rules suffices.
func BenchmarkRedactClean(b *testing.B) {
	msg := strings.Repeat("dial tcp 10.0.0.9:443: connect: connection refused; ", 10)[:500]
	b.ReportAllocs()
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		Redact(msg)
	}
}

func BenchmarkSanitize(b *testing.B) {
	secrets := []string{"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl", "hunter2"}
	b.ReportAllocs()
	for b.Loop() {
		Sanitize(benchMessage, secrets)
	}
}

func BenchmarkClassifyMessage(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ClassifyMessage(benchMessage)
	}
}

func BenchmarkClassify(b *testing.B) {
	err := fmt.Errorf("node lookup: %w", &Error{Message: "posting", Err: errors.New("connection reset by peer")})
	b.ReportAllocs()
	for b.Loop() {
		Classify(err)
	}
}

// BenchmarkSanitizeColdSecrets measures Sanitize with a secret set it has
// not seen, so the replacer of their forms is built each time.
func BenchmarkSanitizeColdSecrets(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		Sanitize(benchMessage, []string{"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl", fmt.Sprint("hunter", n)})
	}
}
