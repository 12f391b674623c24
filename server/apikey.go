package server

import (
	"errors"
)

// errBadKey is any malformed or unknown key: the answer does not say which.
var errBadKey = errors.New("invalid API key")

// MinKeyLen and maxKeyLen bound a key. Generated keys are 47 characters;
// an operator's WETEL_BOOTSTRAP_API_KEY may be any string in range.
const (
	MinKeyLen = 16
	maxKeyLen = 256
)

// checkKeyShape refuses, before any lookup, what cannot be a key.
func checkKeyShape(key string) error {
	if len(key) < MinKeyLen || len(key) > maxKeyLen {
		return errBadKey
	}
	for i := 0; i < len(key); i++ {
		if key[i] <= ' ' || key[i] > '~' {
			return errBadKey
		}
	}
	return nil
}
