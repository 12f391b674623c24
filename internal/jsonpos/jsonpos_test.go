package jsonpos

import (
	"encoding/json"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, doc string
		line, col int // 0: valid
	}{
		{"valid", "{\n  \"a\": [1, 2]\n}\n", 0, 0},
		{"trailing comma", "{\"nodes\": [\n  {\"id\": \"s\"},\n]}", 3, 1},
		{"missing comma", "{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3},
		{"first byte", "x", 1, 1},
		{"unterminated", "{\n  \"a\": [1,", 2, 11},
		{"trailing data", "{}\n  {}", 2, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Check([]byte(tc.doc))
			if tc.line == 0 {
				if err != nil {
					t.Fatalf("Check(%q) = %v, want nil", tc.doc, err)
				}
				return
			}
			pe, ok := err.(*Error)
			if !ok {
				t.Fatalf("Check(%q) = %v, want a located error", tc.doc, err)
			}
			if pe.Line != tc.line || pe.Column != tc.col {
				t.Fatalf("Check(%q) at line %d, column %d, want line %d, column %d (%v)", tc.doc, pe.Line, pe.Column, tc.line, tc.col, err)
			}
		})
	}
}

// An error found while decoding one element on its own is placed in the
// whole document.
func TestElementOffset(t *testing.T) {
	t.Parallel()
	doc := []byte("{\"edges\": [], \"nodes\": [\n  {\"id\": \"a\"},\n  {\"id\": 7}\n]}")
	base, ok := ElementOffset(doc, "nodes", 1)
	if !ok {
		t.Fatal("element 1 not found")
	}
	var n struct{ ID string }
	err := json.Unmarshal(doc[base:base+9], &n)
	located := Locate(doc, base, err, err).(*Error)
	if located.Line != 3 || located.Column != 10 {
		t.Fatalf("type error at line %d, column %d, want line 3, column 10: %v", located.Line, located.Column, located)
	}
	if _, ok := ElementOffset(doc, "nodes", 2); ok {
		t.Fatal("element 2 found in a two-element array")
	}
	if _, ok := ElementOffset(doc, "missing", 0); ok {
		t.Fatal("found an element under a key the document lacks")
	}
}

// A type error points at the start of the value it is about.
func TestLocateTypeErrorAtValueStart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		doc string
		col int
	}{
		{`{"n": "a \"quoted\" word"}`, 7},
		{`{"n": -12.5e+3}`, 7},
		{`{"n": true}`, 7},
	}
	for _, tc := range cases {
		var v struct{ N int }
		err := json.Unmarshal([]byte(tc.doc), &v)
		if err == nil {
			t.Fatalf("%s decoded into an int", tc.doc)
		}
		if _, isType := err.(*json.UnmarshalTypeError); !isType {
			continue // a number too large is not a type error
		}
		pe := Locate([]byte(tc.doc), 0, err, err).(*Error)
		if pe.Line != 1 || pe.Column != tc.col {
			t.Errorf("%s: line %d, column %d, want line 1, column %d", tc.doc, pe.Line, pe.Column, tc.col)
		}
	}
}
