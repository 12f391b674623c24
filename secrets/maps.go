package secrets

import (
	"fmt"
	"maps"
	"slices"
)

// SealMap seals every value of m, such as the headers of a custom action
// or the credentials of an MCP connector. The aad of each value is
// aadPrefix followed by its key, so with the prefix
// "ws:3/customAction:41/header:" the Authorization value is bound to
// "ws:3/customAction:41/header:Authorization" and cannot be swapped with
// another header's, nor moved to another action. Keys are names, not
// secrets, and stay in the clear. A nil map gives nil.
func (b *Box) SealMap(m map[string]string, aadPrefix string) (map[string]string, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		sealed, err := b.Seal([]byte(v), aadPrefix+k)
		if err != nil {
			return nil, fmt.Errorf("sealing %q: %w", k, err)
		}
		out[k] = sealed
	}
	return out, nil
}

// OpenMap opens a map made by SealMap with the same aadPrefix. It fails on
// the first value, in key order, that does not open, naming its key. The opened values
// (slices.Collect(maps.Values(opened))) are what failure.Sanitize must be
// given, so that a node's error text never carries them.
func (b *Box) OpenMap(m map[string]string, aadPrefix string) (map[string]string, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]string, len(m))
	// Sorted, so that the same broken map always gives the same error.
	for _, k := range slices.Sorted(maps.Keys(m)) {
		plain, err := b.Open(m[k], aadPrefix+k)
		if err != nil {
			return nil, fmt.Errorf("opening %q: %w", k, err)
		}
		out[k] = string(plain)
	}
	return out, nil
}
