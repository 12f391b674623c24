package tmpl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// writeKnown writes the chat-text form of the value shapes JSON decoding and
// the engine produce. It reports false for anything else, which the fast path
// hands to raymond rather than guess how raymond would resolve it. Both
// render paths format through here, so they agree byte for byte.
func writeKnown(b *strings.Builder, v any) (bool, error) {
	var num [32]byte
	switch x := v.(type) {
	case nil:
	case string:
		b.WriteString(x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case float64:
		// Whole numbers are most of what chat text shows (counts, slots,
		// amounts) and integer formatting is several times cheaper; the
		// output is the same as FormatFloat(x, 'f', -1, 64), -0 aside.
		if x == math.Trunc(x) && math.Abs(x) < 1e15 && !(x == 0 && math.Signbit(x)) {
			b.Write(strconv.AppendInt(num[:0], int64(x), 10))
		} else {
			b.Write(strconv.AppendFloat(num[:0], x, 'f', -1, 64))
		}
	case float32:
		b.Write(strconv.AppendFloat(num[:0], float64(x), 'f', -1, 32))
	case int:
		b.Write(strconv.AppendInt(num[:0], int64(x), 10))
	case int64:
		b.Write(strconv.AppendInt(num[:0], x, 10))
	case int32:
		b.Write(strconv.AppendInt(num[:0], int64(x), 10))
	case uint64:
		b.Write(strconv.AppendUint(num[:0], x, 10))
	case json.Number:
		b.WriteString(string(x))
	case map[string]any:
		if x != nil {
			return true, writeJSON(b, x)
		}
	case []any:
		// raymond hands over a nil slice for a path it found nowhere
		// inside an array context; like nil, it prints nothing.
		if x != nil {
			return true, writeJSON(b, x)
		}
	default:
		return false, nil
	}
	return true, nil
}

// writeText writes any value in its chat-text form: scalars as text, maps,
// slices and structs as compact JSON (Go's map[...] syntax means nothing to a
// chat user), nil as nothing.
func writeText(b *strings.Builder, v any) error {
	if ok, err := writeKnown(b, v); ok {
		return err
	}
	return writeReflect(b, reflect.ValueOf(v))
}

func writeReflect(b *strings.Builder, v reflect.Value) error {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return nil
	}
	if v.CanInterface() {
		switch x := v.Interface().(type) {
		case error:
			b.WriteString(x.Error())
			return nil
		case fmt.Stringer:
			b.WriteString(x.String())
			return nil
		}
	}
	var num [32]byte
	switch v.Kind() {
	case reflect.String:
		b.WriteString(v.String())
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.Write(strconv.AppendInt(num[:0], v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.Write(strconv.AppendUint(num[:0], v.Uint(), 10))
	case reflect.Float32:
		b.Write(strconv.AppendFloat(num[:0], v.Float(), 'f', -1, 32))
	case reflect.Float64:
		b.Write(strconv.AppendFloat(num[:0], v.Float(), 'f', -1, 64))
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct:
		if v.CanInterface() {
			return writeJSON(b, v.Interface())
		}
	default:
		if v.CanInterface() {
			fmt.Fprint(b, v.Interface())
		}
	}
	return nil
}

// writeJSON writes v as compact JSON without HTML escaping: "<b>" in a chat
// message must stay "<b>", not become "\u003cb\u003e".
func writeJSON(b *strings.Builder, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("render value as json: %w", err)
	}
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return nil
}
