package awaitreply

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/wetel/wetel/vocab"
)

func TestRoundTrip(t *testing.T) {
	for _, opts := range [][]vocab.Option{
		nil,
		{{Slot: 1, ID: "a", Label: "Alpha"}},
		{{Slot: 2, ID: "x\"y", Label: "Ünïcode ✓"}, {Slot: 10, ID: "", Label: ""}},
	} {
		b, err := encodeOptions(opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeOptions(b)
		if err != nil || !reflect.DeepEqual(got, opts) {
			t.Errorf("decodeOptions(encodeOptions(%v)) = %v, %v (stored %s)", opts, got, err, b)
		}
	}
	if b, _ := encodeOptions([]vocab.Option{{Slot: 1, ID: "a", Label: "A"}}); string(b) != `[[1,"a","A"]]` {
		t.Errorf("stored form %s", b)
	}
	if _, err := decodeOptions([]byte(`[[1,"a"]]`)); err == nil {
		t.Error("a row of two values was accepted")
	}
}

// TestDecodeFast: the fast path reads exactly what encoding/json reads, and
// leaves to it whatever it is not sure of.
func TestDecodeFast(t *testing.T) {
	for _, in := range []string{
		`[[1,"a","A"]]`,
		`[[1,"espresso","Espresso"],[2,"latte","Caffè latte"],[-3,"","x"]]`,
		`[[2,"x\"y","Ünïcode ✓"],[10,"",""]]`,
		`[[1,"a\\b","\u00e9"]]`,
		`[[1, "a", "A"]]`,
		`[ [1,"a","A"] ]`,
		`[[1.0,"a","A"]]`,
		`[[01,"a","A"]]`,
		`[[1,"a","A"],]`,
		`[[1,"a","A"]`,
		`[[1,"a"]]`,
		`[[1,"a","A","B"]]`,
		`[[1,"a","A"][2,"b","B"]]`,
		`[[1,"a` + "\x01" + `","A"]]`,
		`[[1,"` + "\xff" + `","A"]]`,
		`[]`,
		`[[]]`,
		`[[-,"a","A"]]`,
	} {
		want, werr := decodeJSON([]byte(in))
		fast, ok := decodeFast([]byte(in))
		if ok && (werr != nil || !reflect.DeepEqual(fast, want)) {
			t.Errorf("decodeFast(%s) = %v; encoding/json reads %v, %v", in, fast, want, werr)
		}
		got, err := decodeOptions([]byte(in))
		if (err == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("decodeOptions(%s) = %v, %v; want %v, %v", in, got, err, want, werr)
		}
	}
	if _, ok := decodeFast([]byte(`[[1,"espresso","Espresso"],[2,"latte","Caffè latte"]]`)); !ok {
		t.Error("the usual stored form took the slow path")
	}
}

// TestEncodeAsJSON: encodeOptions writes what json.Marshal writes.
func TestEncodeAsJSON(t *testing.T) {
	for _, opts := range [][]vocab.Option{
		{{Slot: 1, ID: "a", Label: "Alpha"}},
		{{Slot: -2, ID: "x\"y", Label: "Ünïcode ✓"}, {Slot: 10, ID: "", Label: ""}},
		{{Slot: 3, ID: "<b>&", Label: "tab\there\u2028\xff"}},
	} {
		rows := make([][3]any, len(opts))
		for i, o := range opts {
			rows[i] = [3]any{o.Slot, o.ID, o.Label}
		}
		want, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeOptions(opts)
		if err != nil || string(got) != string(want) {
			t.Errorf("encodeOptions(%v) = %s, %v; json.Marshal writes %s", opts, got, err, want)
		}
	}
}
