package jsoncol

import (
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, m := range []map[string]string{
		{"Authorization": "sealed:v1:abc", "X-Ünïcode": "\"quoted\"\n"},
		{"": ""},
	} {
		b, err := Map(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseMap(b)
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("map %v came back %v, %v", m, got, err)
		}
	}
	for _, l := range [][]string{{"orders-mcp", "--readonly"}, {""}} {
		b, err := List(l)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseList(b)
		if err != nil || !reflect.DeepEqual(got, l) {
			t.Errorf("list %q came back %q, %v", l, got, err)
		}
	}
}

// TestEmptyIsNull: an empty value is stored as NULL and reads back nil.
func TestEmptyIsNull(t *testing.T) {
	if b, err := Map(map[string]string{}); b != nil || err != nil {
		t.Errorf("Map(empty) = %q, %v", b, err)
	}
	if b, err := List([]string{}); b != nil || err != nil {
		t.Errorf("List(empty) = %q, %v", b, err)
	}
	if m, err := ParseMap(nil); m != nil || err != nil {
		t.Errorf("ParseMap(nil) = %v, %v", m, err)
	}
	if l, err := ParseList(nil); l != nil || err != nil {
		t.Errorf("ParseList(nil) = %v, %v", l, err)
	}
	if _, err := ParseMap([]byte(`[1]`)); err == nil {
		t.Error("ParseMap accepted a list")
	}
}
