package optcodec

import (
	"reflect"
	"testing"

	"github.com/wetel/wetel/store"
)

func TestRoundTrip(t *testing.T) {
	for _, opts := range [][]store.Option{
		nil,
		{{Slot: 1, ID: "a", Label: "Alpha"}},
		{{Slot: 2, ID: "x\"y", Label: "Ünïcode ✓"}, {Slot: 10, ID: "", Label: ""}},
	} {
		b, err := Encode(opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(b)
		if err != nil || !reflect.DeepEqual(got, opts) {
			t.Errorf("Decode(Encode(%v)) = %v, %v (stored %s)", opts, got, err, b)
		}
	}
	if b, _ := Encode([]store.Option{{Slot: 1, ID: "a", Label: "A"}}); string(b) != `[[1,"a","A"]]` {
		t.Errorf("stored form %s", b)
	}
	if _, err := Decode([]byte(`[[1,"a"]]`)); err == nil {
		t.Error("a row of two values was accepted")
	}
}
