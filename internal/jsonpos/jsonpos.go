// Package jsonpos says where in a document a JSON error is, as a line and
// a column, so a person fixing a graph or a workspace file by hand goes
// straight to the spot instead of counting bytes.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Error is a JSON error with the line and column (both from 1) it was
// found at.
type Error struct {
	Line, Column int
	Err          error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%v (line %d, column %d)", e.Err, e.Line, e.Column)
}

// Unwrap returns the error that was located.
func (e *Error) Unwrap() error { return e.Err }

// Locate wraps shown (the message for err) with the position of err in
// data, where the document decoded when err occurred began at byte base
// of data: the offending byte of a syntax error, the start of the value a
// type error is about, the end of a document that ends too soon. It
// returns shown as it is when err carries no offset.
func Locate(data []byte, base int64, err, shown error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var off int64
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data)) + 1
	case errors.As(err, &se):
		// Found after reading Offset bytes: the last one read is at fault.
		off = base + se.Offset
	case errors.As(err, &te):
		// Reported once the value has been read: back up to its start.
		off = valueStart(data, base+te.Offset-1) + 1
	default:
		return shown
	}
	line, col := Position(data, off)
	return &Error{Line: line, Column: col, Err: shown}
}

// valueStart returns where the scalar value ending at byte last begins; an
// object or array is left at its closing bracket.
func valueStart(data []byte, last int64) int64 {
	if last < 0 || last >= int64(len(data)) {
		return last
	}
	i := last
	if data[i] == '"' {
		for i--; i >= 0; i-- {
			if data[i] == '"' && !escaped(data, i) {
				return i
			}
		}
		return last
	}
	for i > 0 && isLiteral(data[i-1]) {
		i--
	}
	return i
}

func escaped(data []byte, i int64) bool {
	n := 0
	for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func isLiteral(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'E'
}

// Position returns the line and column of the byte just before off, the
// one encoding/json had read last when it reported off; off one past the
// end is the end of the document.
func Position(data []byte, off int64) (line, col int) {
	if off > int64(len(data))+1 {
		off = int64(len(data)) + 1
	}
	p := int(off) - 1
	if p < 0 {
		return 1, 1
	}
	before := data[:p]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = p - bytes.LastIndexByte(before, '\n')
	return line, col
}

// Check reports whether data is one JSON value, with the position of the
// first syntax error.
func Check(data []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return Locate(data, 0, err, err)
	}
	if dec.More() {
		line, col := Position(data, dec.InputOffset()+int64(len(leadingSpace(data[dec.InputOffset():])))+1)
		return &Error{Line: line, Column: col, Err: errors.New("unexpected data after the JSON value")}
	}
	return nil
}

// ElementOffset returns where element index of the array under key of the
// top-level object in data starts, for locating an error found while
// decoding that element on its own.
func ElementOffset(data []byte, key string, index int) (int64, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return 0, false
		}
		if k != key {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return 0, false
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return 0, false
		}
		for i := 0; dec.More(); i++ {
			if i == index {
				// InputOffset is just past the previous token; the element
				// starts after the blanks and the comma in between.
				off := dec.InputOffset()
				rest := data[off:]
				for len(rest) > 0 && (rest[0] == ',' || isSpace(rest[0])) {
					rest, off = rest[1:], off+1
				}
				return off, true
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return 0, false
			}
		}
		return 0, false
	}
	return 0, false
}

func leadingSpace(b []byte) []byte {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return b[:i]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
