package retry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/wetel/wetel/failure"
)

// ErrInvalidConfig is wrapped by every error FromConfig and Decode return.
// Saving a workflow validates the retry field already, so it means a stored
// config that bypassed validation.
var ErrInvalidConfig = errors.New("invalid retry policy")

// retryable are the classes an on list may name (seed: "any of TIMEOUT,
// UNREACHABLE, RATE_LIMITED, UPSTREAM_ERROR").
var retryable = []failure.Code{failure.Timeout, failure.Unreachable, failure.RateLimited, failure.UpstreamError}

var knownFields = []string{"maxAttempts", "backoff", "delayMs", "maxDelayMs", "jitter", "on", "idempotent", "deadlineMs"}

// FromConfig returns the policy of a node of type nodeType whose config's
// retry field is retry, as decoded from JSON (numbers as float64; int, int64
// and json.Number are accepted too). A nil retry means no field: the node
// keeps Builtin(nodeType). Otherwise the field replaces the built-in policy
// and the seed's defaults fill what it leaves out.
func FromConfig(nodeType string, retry map[string]any) (Policy, error) {
	if retry == nil {
		return Builtin(nodeType), nil
	}
	keys := make([]string, 0, len(retry))
	for k := range retry {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(knownFields, k) {
			return Policy{}, fmt.Errorf("%w: retry.%s is not a known field", ErrInvalidConfig, k)
		}
	}
	// Seed defaults: backoff "exponential", delayMs 500, maxDelayMs 5000,
	// jitter true, on ["UNREACHABLE", "RATE_LIMITED"], idempotent false;
	// each field reader below returns its default when the field is absent.
	p := Policy{On: DefaultOn(), Explicit: true}
	attempts, err := intField(retry, "maxAttempts", 1, 4, -1)
	if err != nil {
		return Policy{}, err
	}
	p.MaxAttempts = int(attempts)
	delay, err := intField(retry, "delayMs", 100, 5000, DefaultDelay.Milliseconds())
	if err != nil {
		return Policy{}, err
	}
	// Seed: maxDelayMs is "from delayMs to 5000".
	maxDelay, err := intField(retry, "maxDelayMs", delay, 5000, DefaultMaxDelay.Milliseconds())
	if err != nil {
		return Policy{}, err
	}
	p.Delay, p.MaxDelay = time.Duration(delay)*time.Millisecond, time.Duration(maxDelay)*time.Millisecond
	deadline, err := intField(retry, "deadlineMs", 1000, 120000, 0)
	if err != nil {
		return Policy{}, err
	}
	p.Deadline = time.Duration(deadline) * time.Millisecond
	if p.Backoff, err = backoffField(retry); err != nil {
		return Policy{}, err
	}
	if p.Jitter, err = boolField(retry, "jitter", true); err != nil {
		return Policy{}, err
	}
	if p.Idempotent, err = boolField(retry, "idempotent", false); err != nil {
		return Policy{}, err
	}
	if on, ok := retry["on"]; ok {
		if p.On, err = onField(on); err != nil {
			return Policy{}, err
		}
	}
	return p, nil
}

// Decode is FromConfig for the raw JSON of a retry field; empty or null
// raw means no field.
func Decode(nodeType string, raw json.RawMessage) (Policy, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return Builtin(nodeType), nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return Policy{}, fmt.Errorf("%w: retry must be an object: %w", ErrInvalidConfig, err)
	}
	return FromConfig(nodeType, m)
}

// intField reads the integer field name in [lo, hi]. A missing field yields
// def, or an error when def is negative (the field is required).
func intField(m map[string]any, name string, lo, hi, def int64) (int64, error) {
	v, ok := m[name]
	if !ok {
		if def < 0 {
			return 0, fmt.Errorf("%w: retry.%s is required", ErrInvalidConfig, name)
		}
		return def, nil
	}
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case json.Number:
		var err error
		if f, err = n.Float64(); err != nil {
			f = math.NaN()
		}
	default:
		f = math.NaN()
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		return 0, fmt.Errorf("%w: retry.%s must be an integer from %d to %d, not %v", ErrInvalidConfig, name, lo, hi, v)
	}
	return int64(f), nil
}

func boolField(m map[string]any, name string, def bool) (bool, error) {
	v, ok := m[name]
	if !ok {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%w: retry.%s must be true or false, not %v", ErrInvalidConfig, name, v)
	}
	return b, nil
}

func backoffField(m map[string]any) (string, error) {
	v, ok := m["backoff"]
	if !ok {
		return DefaultBackoff, nil
	}
	if s, _ := v.(string); s == BackoffFixed || s == BackoffExponential {
		return s, nil
	}
	return "", fmt.Errorf("%w: retry.backoff must be %q or %q, not %v", ErrInvalidConfig, BackoffFixed, BackoffExponential, v)
}

// onField reads the on list, dropping repeats.
func onField(v any) ([]failure.Code, error) {
	var names []string
	switch l := v.(type) {
	case []string:
		names = l
	case []failure.Code:
		for _, c := range l {
			names = append(names, string(c))
		}
	case []any:
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%w: retry.on must list failure classes, not %v", ErrInvalidConfig, e)
			}
			names = append(names, s)
		}
	default:
		return nil, fmt.Errorf("%w: retry.on must be a list of failure classes", ErrInvalidConfig)
	}
	on := []failure.Code{}
	for _, s := range names {
		c := failure.Code(s)
		if !slices.Contains(retryable, c) {
			return nil, fmt.Errorf("%w: retry.on may name TIMEOUT, UNREACHABLE, RATE_LIMITED and UPSTREAM_ERROR, not %q", ErrInvalidConfig, s)
		}
		if !slices.Contains(on, c) {
			on = append(on, c)
		}
	}
	return on, nil
}
