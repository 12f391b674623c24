package tmpl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// JSONTemplate is a JSON body template (bodyTemplate, argsTemplate). Only
// string values are templates; the structure is fixed at parse time, so user
// text can never break or extend it. Safe for concurrent use.
type JSONTemplate struct {
	src  string
	root jsonNode
}

// jsonNode is one compiled value. Exactly one of the fields describes it:
// keys/items for containers, ref for a leaf that is a single {{path}}, tmpl for
// any other string leaf, and value for everything constant.
type jsonNode struct {
	value any
	tmpl  *Template
	ref   []string
	keys  []string
	items []jsonNode
	// object is set for objects, whose children are items in keys order.
	object bool
	// at is the leaf's JSON pointer, for error messages.
	at string
}

// ParseJSON compiles src, which must be valid JSON text. Every string value
// (not object keys) is compiled as a Template.
func ParseJSON(src string) (*JSONTemplate, error) {
	if len(src) > MaxSourceBytes {
		return nil, fmt.Errorf("template is %d bytes, over the %d-byte limit", len(src), MaxSourceBytes)
	}
	var probe any
	if err := json.Unmarshal([]byte(src), &probe); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	// Decode again keeping numbers as written: 1.50 or 10000000000000001
	// must reach the request unchanged.
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	root, err := compileJSON(doc, "")
	if err != nil {
		return nil, err
	}
	return &JSONTemplate{src: src, root: root}, nil
}

func compileJSON(v any, at string) (jsonNode, error) {
	switch x := v.(type) {
	case map[string]any:
		n := jsonNode{object: true, keys: slices.Sorted(maps.Keys(x))}
		for _, k := range n.keys {
			child, err := compileJSON(x[k], at+"/"+jsonPointerEscape.Replace(k))
			if err != nil {
				return jsonNode{}, err
			}
			n.items = append(n.items, child)
		}
		return n, nil
	case []any:
		n := jsonNode{items: make([]jsonNode, 0, len(x))}
		for i, e := range x {
			child, err := compileJSON(e, at+"/"+strconv.Itoa(i))
			if err != nil {
				return jsonNode{}, err
			}
			n.items = append(n.items, child)
		}
		return n, nil
	case string:
		if at == "" {
			at = "/"
		}
		t, err := Parse(x)
		if err != nil {
			return jsonNode{}, fmt.Errorf("template at %s: %w", at, err)
		}
		if t.static {
			return jsonNode{value: x}, nil
		}
		return jsonNode{ref: singleRef(x, t), tmpl: t, at: at}, nil
	}
	return jsonNode{value: v}, nil
}

// singleRef returns the path of a leaf that is exactly one plain {{path}}:
// such a leaf takes the value's own JSON type. {{{x}}} and {{&x}} stay
// strings, which gives authors a way to ask for text.
func singleRef(src string, t *Template) []string {
	if t.fast == nil || len(t.fast.segs) != 1 || t.fast.segs[0].path == nil {
		return nil
	}
	if !strings.HasPrefix(src, "{{") || !strings.HasSuffix(src, "}}") || strings.Count(src, "{{") != 1 {
		return nil
	}
	if strings.ContainsAny(src[2:3], "{&~") || src[len(src)-3] == '~' {
		return nil
	}
	return t.fast.segs[0].path
}

var jsonPointerEscape = strings.NewReplacer("~", "~0", "/", "~1")

// Source returns the text the template was parsed from.
func (t *JSONTemplate) Source() string { return t.src }

// Render renders every string leaf and returns the value tree (map[string]any,
// []any, string, json.Number, bool, nil, or whatever a single-{{path}} leaf
// found in vars). The tree may share maps and slices with vars: read, don't modify.
func (t *JSONTemplate) Render(vars map[string]any) (any, error) {
	size := 0
	return t.root.render(vars, &size)
}

// render accounts every rendered string and every referenced value in size,
// so that a body repeating a large value many times fails instead of growing.
// A ref leaf whose path meets a value outside the JSON shapes renders as text.
func (n *jsonNode) render(vars map[string]any, size *int) (any, error) {
	switch {
	case n.object:
		out := make(map[string]any, len(n.keys))
		for i := range n.items {
			v, err := n.items[i].render(vars, size)
			if err != nil {
				return nil, err
			}
			out[n.keys[i]] = v
			*size += len(n.keys[i])
		}
		return out, nil
	case n.items != nil:
		out := make([]any, len(n.items))
		for i := range n.items {
			v, err := n.items[i].render(vars, size)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case n.ref != nil:
		if v, ok := resolve(vars, n.ref); ok {
			*size += encodedSizeAtLeast(v, MaxOutputBytes-*size)
			if *size > MaxOutputBytes {
				return nil, ErrOutputTooLarge
			}
			return v, nil
		}
	case n.tmpl == nil:
		return n.value, nil
	}
	s, err := n.tmpl.Render(vars)
	if err != nil {
		return nil, fmt.Errorf("template at %s: %w", n.at, err)
	}
	if *size += len(s); *size > MaxOutputBytes {
		return nil, ErrOutputTooLarge
	}
	return s, nil
}

// RenderBytes is Render followed by compact JSON encoding, without HTML
// escaping of <, > and &.
func (t *JSONTemplate) RenderBytes(vars map[string]any) (out []byte, err error) {
	v, err := t.Render(vars)
	if err != nil {
		return nil, err
	}
	defer func() {
		// Values taken from vars as they are may carry a panicking MarshalJSON.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("encode rendered json: %v", r)
		}
	}()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode rendered json: %w", err)
	}
	out = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(out) > MaxOutputBytes {
		return nil, ErrOutputTooLarge
	}
	return out, nil
}

// encodedSizeAtLeast is a lower bound of v's JSON size that stops counting
// once it passes limit, so checking a huge value costs at most limit steps.
func encodedSizeAtLeast(v any, limit int) int {
	switch x := v.(type) {
	case nil, bool, float64, json.Number:
		return 1
	case string:
		return len(x) + 2
	case map[string]any:
		n := 2
		for k, e := range x {
			if n += len(k) + 4 + encodedSizeAtLeast(e, limit-n); n > limit {
				break
			}
		}
		return n
	case []any:
		n := 2
		for _, e := range x {
			if n += 1 + encodedSizeAtLeast(e, limit-n); n > limit {
				break
			}
		}
		return n
	}
	// Values a caller put in vars directly ([]string, map[string]int, …).
	rv := reflect.ValueOf(v)
	n := 2
	switch rv.Kind() {
	case reflect.String:
		n += rv.Len()
	case reflect.Slice, reflect.Array:
		for i := 0; i < rv.Len() && n <= limit; i++ {
			n += 1 + encodedSizeAtLeast(rv.Index(i).Interface(), limit-n)
		}
	case reflect.Map:
		for it := rv.MapRange(); it.Next() && n <= limit; {
			n += 4 + encodedSizeAtLeast(it.Value().Interface(), limit-n)
		}
	}
	return n
}
