package failure_test

import (
	"fmt"

	"github.com/wetel/wetel/failure"
)

// A failed node yields the three context variables the engine stores.
func Example() {
	err := fmt.Errorf("calling action 41: %w", &failure.Error{
		HTTPStatus: 503,
		Message:    `POST "https://claims.example.com/v1/claims?api_key=k-123456": HTTP 503`,
		Sent:       true,
	})
	code := failure.Classify(err)
	fmt.Println(failure.Sanitize(err.Error(), nil))
	fmt.Println(code)
	fmt.Println(code.PublicSentence())
	// Output:
	// calling action 41: POST "https://claims.example.com/v1/claims?api_key=[REDACTED]": HTTP 503
	// UPSTREAM_ERROR
	// The service had a problem handling the request.
}

func ExampleClassifyMessage() {
	for _, msg := range []string{
		"dial tcp 10.0.0.9:443: connect: connection refused",
		"HTTP 429 Too Many Requests",
		"order 4291 not found",
	} {
		fmt.Println(failure.ClassifyMessage(msg))
	}
	// Output:
	// UNREACHABLE
	// RATE_LIMITED
	// UNKNOWN
}

func ExampleRedact() {
	fmt.Println(failure.Redact("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"))
	fmt.Println(failure.Redact("postgres://app:p@ss@db.internal/claims"))
	fmt.Println(failure.Redact(`{"user":"bob","password":"hunter2"}`))
	// Output:
	// Authorization: Bearer [REDACTED]
	// postgres://app:[REDACTED]@db.internal/claims
	// {"user":"bob","password":"[REDACTED]"}
}

func ExampleRedactValues() {
	// The connector's credential is known to the engine, whatever it looks like.
	fmt.Println(failure.RedactValues("upstream echoed plain-Orange-42 back", []string{"plain-Orange-42"}))
	// Output:
	// upstream echoed [REDACTED] back
}

func ExampleParseCode() {
	code, err := failure.ParseCode("RATE_LIMITED")
	fmt.Println(code, err)
	_, err = failure.ParseCode("SLOW")
	fmt.Println(err)
	// Output:
	// RATE_LIMITED <nil>
	// unknown failure code "SLOW": valid codes are TIMEOUT, UNREACHABLE, RATE_LIMITED, REJECTED, UPSTREAM_ERROR, INVALID_DATA, UNKNOWN
}
