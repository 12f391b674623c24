// Package jsoncol encodes the small maps and lists the store keeps in one
// JSON text column (headers, credentials, a command line), the same way in
// every driver. Empty is stored as NULL, so an empty value costs nothing
// and reads back as nil.
package jsoncol

import (
	"encoding/json"
	"fmt"
)

// Map returns m's stored form, or nil for an empty map.
func Map(m map[string]string) ([]byte, error) {
	if len(m) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encoding a map column: %w", err)
	}
	return b, nil
}

// ParseMap reads a stored map; NULL (empty) is nil.
func ParseMap(b []byte) (map[string]string, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decoding a map column: %w", err)
	}
	return m, nil
}

// List returns l's stored form, or nil for an empty list.
func List(l []string) ([]byte, error) {
	if len(l) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(l)
	if err != nil {
		return nil, fmt.Errorf("encoding a list column: %w", err)
	}
	return b, nil
}

// ParseList reads a stored list; NULL (empty) is nil.
func ParseList(b []byte) ([]string, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var l []string
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("decoding a list column: %w", err)
	}
	return l, nil
}
