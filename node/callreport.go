package node

import "github.com/wetel/wetel/retry"

// CallReport is what the retries of a call did, for its trace row: one
// entry per failed attempt (no error text, no body) and the retry outcome.
// It is part of the node contract, not of the call machinery (package
// callout), because the engine reads it: a call node notes it with
// Exec.NoteCall, or returns it in a *CallError.
type CallReport struct {
	Attempts []retry.Attempt
	// Outcome is one of the retry.Outcome constants.
	Outcome string
}

// CallError is the error of a call that failed for good: the last
// attempt's error (already redacted by the executor) and what its retries
// did. The engine finds it with errors.As and puts the report on the trace
// row; the message goes only to _lastNodeError and the run's error.
type CallError struct {
	Err error
	CallReport
}

func (e *CallError) Error() string { return e.Err.Error() }
func (e *CallError) Unwrap() error { return e.Err }

// ModelReport is what a node's model call did, for its trace row: never
// the prompt or the reply.
type ModelReport struct {
	Model     string
	Provider  string
	TokensIn  int
	TokensOut int
	// Cost is the tokens' price in the workspace's catalog; 0 without one.
	Cost float64
	// Fallbacks are the providers that failed before the answer (or before
	// the call gave up), in order.
	Fallbacks []ModelFallback
}

// ModelFallback is one provider that could not answer.
type ModelFallback struct {
	Provider   string `json:"provider"`
	ErrorClass string `json:"errorClass"`
	HTTPStatus int    `json:"httpStatus,omitempty"`
}
