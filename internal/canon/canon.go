// Package canon compares JSON documents by their canonical form, so that a
// graph re-sent with other whitespace or key order is recognised as the same.
package canon

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Bytes returns doc re-marshalled: compact, object keys sorted, numbers kept
// as written (decoding into float64 would merge distinct large integers).
func Bytes(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decoding json: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("decoding json: trailing data after the document")
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding json: %w", err)
	}
	return out, nil
}

// Equal reports whether a and b are the same JSON document. An invalid a or b
// is an error: a version that cannot be compared must not be silently
// replaced or kept.
func Equal(a, b []byte) (bool, error) {
	ca, err := Bytes(a)
	if err != nil {
		return false, err
	}
	cb, err := Bytes(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ca, cb), nil
}
