package reply

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// The errors BuildOptions wraps, so a caller can tell the cases apart with
// errors.Is. Rule: "An optionsFrom path that resolves to a missing value, a
// non-array, or an empty array fails the node rather than silently
// degrading to a free-text question."
var (
	// ErrNoValue means nothing was found at the optionsFrom path.
	ErrNoValue = errors.New("no value at this path")
	// ErrNotArray means the value at the path is not an array.
	ErrNotArray = errors.New("not an array")
	// ErrEmptyArray means the array at the path has no elements.
	ErrEmptyArray = errors.New("the array is empty")
	// ErrBadElement means a kept element is not an object, or lacks a
	// usable id or label.
	ErrBadElement = errors.New("bad option element")
)

// elementError words a problem with one element in full while still
// matching ErrBadElement.
type elementError struct{ msg string }

func (e *elementError) Error() string { return e.msg }
func (e *elementError) Unwrap() error { return ErrBadElement }

// BuildOptions builds the option list from value, the value the caller
// found at the optionsFrom path (found is false when the path is missing).
// idField and labelField name the fields holding each element's id and
// label, "id" and "label" when empty.
//
// Only the first MaxOptions elements are kept, and only they are checked:
// an entry that is dropped cannot fail the question. Each must be an object
// whose id and label are strings or numbers; numbers are written in their
// shortest form (19, not 19.0). Labels are cut to MaxLabelRunes runes with
// nothing added: the spec says "truncated", and the stored label, which
// saveAs later holds, stays a prefix of the data rather than text (an
// ellipsis) that no record contains.
//
// Errors name the path and, for a bad element, its 0-based index (the index
// a dot path would use) and the field, e.g.
// `optionsFrom "jobs.data": element 3 has no "id" field`.
func BuildOptions(path string, value any, found bool, idField, labelField string) ([]Option, error) {
	if idField == "" {
		idField = "id"
	}
	if labelField == "" {
		labelField = "label"
	}
	if !found {
		return nil, fmt.Errorf("optionsFrom %q: %w", path, ErrNoValue)
	}
	var elems []any
	switch v := value.(type) {
	case []any:
		elems = v
	case []map[string]any:
		elems = make([]any, len(v))
		for i, m := range v {
			elems[i] = m
		}
	default:
		return nil, fmt.Errorf("optionsFrom %q: %w (got %s)", path, ErrNotArray, kindOf(value))
	}
	if len(elems) == 0 {
		return nil, fmt.Errorf("optionsFrom %q: %w", path, ErrEmptyArray)
	}
	// Rule: "at most 20 options per question (extra entries are dropped)".
	elems = elems[:min(len(elems), MaxOptions)]
	opts := make([]Option, len(elems))
	for i, e := range elems {
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, badElement(path, i, "is not an object (got %s)", kindOf(e))
		}
		id, err := scalarField(path, i, obj, idField)
		if err != nil {
			return nil, err
		}
		label, err := scalarField(path, i, obj, labelField)
		if err != nil {
			return nil, err
		}
		// Rule: "labels truncated to 80 characters".
		opts[i] = Option{Slot: i + 1, ID: id, Label: truncateRunes(label, MaxLabelRunes)}
	}
	return opts, nil
}

// badElement reports a problem with element i, the words after its index
// given by format.
func badElement(path string, i int, format string, args ...any) error {
	return &elementError{msg: fmt.Sprintf("optionsFrom %q: element %d ", path, i) + fmt.Sprintf(format, args...)}
}

// scalarField reads obj[field] as text. Booleans are refused along with
// objects and arrays: "true" is no one's identifier or label, and data
// that puts one there is more likely pointing at the wrong field.
func scalarField(path string, i int, obj map[string]any, field string) (string, error) {
	v, ok := obj[field]
	if !ok {
		return "", badElement(path, i, "has no %q field", field)
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	case float64:
		return formatFloat(path, i, field, x, 64)
	case float32:
		return formatFloat(path, i, field, float64(x), 32)
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int32:
		return strconv.FormatInt(int64(x), 10), nil
	case uint64:
		return strconv.FormatUint(x, 10), nil
	case uint:
		return strconv.FormatUint(uint64(x), 10), nil
	}
	return "", badElement(path, i, "field %q is %s, not a string or number", field, kindOf(v))
}

// formatFloat writes a number in its shortest exact decimal form, never
// with an exponent, so 19 is "19" and an id of 1e21 keeps all its digits.
func formatFloat(path string, i int, field string, x float64, bits int) (string, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "", badElement(path, i, "field %q is not a finite number", field)
	}
	if x == 0 {
		x = 0 // -0 would print as "-0"
	}
	return strconv.FormatFloat(x, 'f', -1, bits), nil
}

// kindOf names a value's JSON kind, with its article, for error messages.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, float32, int, int64, int32, uint64, uint, json.Number:
		return "a number"
	case map[string]any:
		return "an object"
	case []any, []map[string]any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}

// truncateRunes cuts s to at most n runes, never splitting a multi-byte
// character.
func truncateRunes(s string, n int) string {
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}
