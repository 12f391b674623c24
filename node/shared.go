package node

import (
	"time"

	"github.com/wetel/wetel/failure"
)

// Limits the seeds fix for every node.
const (
	// DefaultMaxVisits is the visit bound of a node that leaves maxVisits unset.
	DefaultMaxVisits = 1
	// MaxVisitsCeiling is the highest maxVisits a node may declare.
	MaxVisitsCeiling = 100
	// MaxMockBytes bounds mockResponse and mockError ("any JSON value up to 16 KB").
	MaxMockBytes = 16 << 10
)

// MaxWaitExpiry is the ceiling a pausing node's expiry is clamped to (seed
// 000: "clamped to a hard ceiling of 7 days").
const MaxWaitExpiry = 7 * 24 * time.Hour

// MaxVisitsOf reads a config's maxVisits: the value when it is a valid one,
// with explicit true, else DefaultMaxVisits.
func MaxVisitsOf(cfg map[string]any) (visits int, explicit bool) {
	if f, ok := cfg[FieldMaxVisits].(float64); ok && f >= 1 && f <= MaxVisitsCeiling {
		return int(f), true
	}
	return DefaultMaxVisits, false
}

// Names of the config fields every node or a capability shares.
const (
	FieldMaxVisits    = "maxVisits"
	FieldMockResponse = "mockResponse"
	FieldMockError    = "mockError"
	FieldRetry        = "retry"
)

// MaxVisitsField is accepted by every node type: how many times the node may
// run within a single turn.
var MaxVisitsField = Field{
	Name: FieldMaxVisits, Kind: KindInteger, Default: DefaultMaxVisits,
	Min: Float(1), Max: Float(MaxVisitsCeiling),
	Description: "How many times this node may run within a single turn (1 to 100). " +
		"Leave it unset unless a back-edge should genuinely re-run the node.",
}

// MockResponseField is accepted by mockable types only.
var MockResponseField = Field{
	Name: FieldMockResponse, Kind: KindAny,
	Description: "Any JSON value up to 16 KB that the node returns in mock mode instead of calling out. A live run ignores it.",
}

// MockErrorField makes a mocked node fail with a given error class.
var MockErrorField = Field{
	Name: FieldMockError, Kind: KindObject,
	Description: "Makes the node fail in mock mode with this error class and message, so failure edges and loop_exhausted paths can be tested offline. A live run ignores it.",
	Fields: []Field{
		{Name: "code", Kind: KindString, Required: true, Enum: codeNames(), Description: "The error class, as _lastNodeErrorCode."},
		{Name: "message", Kind: KindString, MaxLength: 2048, Description: "The error message, as _lastNodeError."},
	},
}

// Retry classes: the failure codes a retry policy may name in "on".
var retryClasses = []string{string(failure.Timeout), string(failure.Unreachable), string(failure.RateLimited), string(failure.UpstreamError)}

// RetryField is accepted by tool, action and webhook nodes (seed: "Retrying a failed call").
var RetryField = Field{
	Name: FieldRetry, Kind: KindObject,
	Description: "Replaces the built-in retry behaviour of a call. { \"maxAttempts\": 1 } turns retrying off.",
	Fields: []Field{
		{Name: "maxAttempts", Kind: KindInteger, Required: true, Min: Float(1), Max: Float(4), Description: "Total attempts including the first, 1 to 4."},
		{Name: "backoff", Kind: KindString, Enum: []string{"fixed", "exponential"}, Default: "exponential", Description: "\"fixed\" waits delayMs every time; \"exponential\" doubles it."},
		{Name: "delayMs", Kind: KindInteger, Default: 500, Min: Float(100), Max: Float(5000), Description: "First wait in ms, 100 to 5000."},
		{Name: "maxDelayMs", Kind: KindInteger, Default: 5000, Min: Float(100), Max: Float(5000), Description: "Cap on any one wait in ms, from delayMs to 5000."},
		{Name: "jitter", Kind: KindBoolean, Default: true, Description: "Spreads each wait by up to 20 % either way."},
		{Name: "on", Kind: KindArray, Default: []string{"UNREACHABLE", "RATE_LIMITED"}, MaxItems: 4,
			Items:       &Field{Kind: KindString, Enum: retryClasses},
			Description: "Failure classes to retry: any of TIMEOUT, UNREACHABLE, RATE_LIMITED, UPSTREAM_ERROR."},
		{Name: "idempotent", Kind: KindBoolean, Default: false, Description: "Your statement that sending the request twice is harmless."},
		{Name: "deadlineMs", Kind: KindInteger, Min: Float(1000), Max: Float(120000), Description: "Time for all attempts and waits together, 1000 to 120000."},
	},
}

func codeNames() []string {
	codes := failure.Codes()
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = string(c)
	}
	return out
}

// CheckRetry applies the retry rules a single field cannot express.
func CheckRetry(retry map[string]any) []FieldError {
	var errs []FieldError
	delay, hasDelay := retry["delayMs"].(float64)
	if !hasDelay {
		delay = 500
	}
	// Seed: maxDelayMs is "from delayMs to 5000".
	if max, ok := retry["maxDelayMs"].(float64); ok && max < delay {
		errs = append(errs, FieldError{Path: "retry.maxDelayMs", Rule: "must be at least delayMs; it caps any one wait"})
	}
	return errs
}
