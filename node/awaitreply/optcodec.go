package awaitreply

// A wait's options are stored as compact JSON rows, [[slot,"id","label"],...]:
// the keys of the object form would be repeated in every stored wait and
// cost about a fifth of the column.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/wetel/wetel/vocab"
)

// encodeOptions returns the stored form of opts; nil when there are none, so a
// free-text wait stores NULL. It writes what json.Marshal would, byte for
// byte, without its reflection.
func encodeOptions(opts []vocab.Option) ([]byte, error) {
	if len(opts) == 0 {
		return nil, nil
	}
	b := make([]byte, 0, 16*len(opts)+64)
	b = append(b, '[')
	for i, o := range opts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(o.Slot), 10)
		b = append(b, ',')
		b = appendString(b, o.ID)
		b = append(b, ',')
		b = appendString(b, o.Label)
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

// appendString appends s as json.Marshal quotes it: as is when nothing in
// it needs escaping, else through json.Marshal.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20, c == '"', c == '\\', c == '<', c == '>', c == '&', c >= utf8.RuneSelf:
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// decodeOptions reverses encodeOptions; empty input is no options.
func decodeOptions(b []byte) ([]vocab.Option, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if opts, ok := decodeFast(b); ok {
		return opts, nil
	}
	return decodeJSON(b)
}

// decodeFast reads what encodeOptions writes for options whose ids and labels
// need no escaping, the usual case, without encoding/json's reflection
// (a tenth of the time; every read of an open wait decodes its options).
// Anything else (an escape, a space, a number that is not a plain
// integer) is left to decodeJSON: ok is false.
func decodeFast(b []byte) (opts []vocab.Option, ok bool) {
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return nil, false
	}
	rest := b[1 : len(b)-1]
	opts = make([]vocab.Option, 0, bytes.Count(rest, []byte("],["))+1)
	for len(rest) > 0 {
		if rest[0] != '[' {
			return nil, false
		}
		rest = rest[1:]
		var o vocab.Option
		i := 0
		if i < len(rest) && rest[i] == '-' {
			i++
		}
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		digits := bytes.TrimPrefix(rest[:i], []byte("-"))
		slot, err := strconv.Atoi(string(rest[:i]))
		if err != nil || (len(digits) > 1 && digits[0] == '0') || i >= len(rest) || rest[i] != ',' {
			return nil, false
		}
		o.Slot, rest = slot, rest[i+1:]
		if o.ID, rest, ok = plainString(rest); !ok || len(rest) == 0 || rest[0] != ',' {
			return nil, false
		}
		if o.Label, rest, ok = plainString(rest[1:]); !ok || len(rest) == 0 || rest[0] != ']' {
			return nil, false
		}
		rest = rest[1:]
		if len(rest) > 0 {
			if rest[0] != ',' || len(rest) == 1 {
				return nil, false
			}
			rest = rest[1:]
		}
		opts = append(opts, o)
	}
	return opts, true
}

// plainString reads a JSON string that holds no escape and only valid
// UTF-8 with no control characters, and returns what follows it.
func plainString(b []byte) (string, []byte, bool) {
	if len(b) == 0 || b[0] != '"' {
		return "", nil, false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 {
		return "", nil, false
	}
	s := b[1 : 1+end]
	for _, c := range s {
		if c == '\\' || c < 0x20 {
			return "", nil, false
		}
	}
	if !utf8.Valid(s) {
		return "", nil, false
	}
	return string(s), b[2+end:], true
}

// decodeJSON is decodeOptions for any JSON of encodeOptions' shape.
func decodeJSON(b []byte) ([]vocab.Option, error) {
	var rows [][3]json.RawMessage
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("decoding options: %w", err)
	}
	opts := make([]vocab.Option, len(rows))
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
