// Package optcodec encodes a wait's options for storage as compact JSON rows,
// [[slot,"id","label"],...]: the keys of the object form would be repeated in
// every stored wait and cost about a fifth of the column.
package optcodec

import (
	"encoding/json"
	"fmt"

	"github.com/wetel/wetel/store"
)

// Encode returns the stored form of opts; nil when there are none, so a
// free-text wait stores NULL.
func Encode(opts []store.Option) ([]byte, error) {
	if len(opts) == 0 {
		return nil, nil
	}
	rows := make([][3]any, len(opts))
	for i, o := range opts {
		rows[i] = [3]any{o.Slot, o.ID, o.Label}
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return nil, fmt.Errorf("encoding options: %w", err)
	}
	return b, nil
}

// Decode reverses Encode; empty input is no options.
func Decode(b []byte) ([]store.Option, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var rows [][3]json.RawMessage
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("decoding options: %w", err)
	}
	opts := make([]store.Option, len(rows))
	for i, r := range rows {
		o := &opts[i]
		if err := json.Unmarshal(r[0], &o.Slot); err != nil {
			return nil, fmt.Errorf("decoding option %d slot: %w", i, err)
		}
		if err := json.Unmarshal(r[1], &o.ID); err != nil {
			return nil, fmt.Errorf("decoding option %d id: %w", i, err)
		}
		if err := json.Unmarshal(r[2], &o.Label); err != nil {
			return nil, fmt.Errorf("decoding option %d label: %w", i, err)
		}
	}
	return opts, nil
}
