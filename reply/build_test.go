package reply

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestBuildOptions(t *testing.T) {
	t.Parallel()
	var fromJSON any
	if err := json.Unmarshal([]byte(`[{"id":19,"label":"Solution Architect"},{"id":7.5,"label":2024}]`), &fromJSON); err != nil {
		t.Fatal(err)
	}
	many := make([]any, 25)
	for i := range many {
		many[i] = obj("id", strconv.Itoa(i+1), "label", "Option "+strconv.Itoa(i+1))
	}
	many[22] = "not an object, but dropped before it is looked at"
	tests := []struct {
		name              string
		value             any
		idField, lblField string
		want              []Option
	}{
		{"defaults", []any{obj("id", "a", "label", "Alpha"), obj("id", "b", "label", "Beta")}, "", "",
			[]Option{{Slot: 1, ID: "a", Label: "Alpha"}, {Slot: 2, ID: "b", Label: "Beta"}}},
		{"custom fields, the shipping example", shippingData(), "order_id", "description",
			[]Option{{Slot: 1, ID: "ORD-1041", Label: "Walnut desk lamp"}, {Slot: 2, ID: "ORD-1187", Label: "Linen duvet cover, queen"}, {Slot: 3, ID: "ORD-1203", Label: "Cast iron skillet"}}},
		{"numbers from JSON in shortest form", fromJSON, "", "",
			[]Option{{Slot: 1, ID: "19", Label: "Solution Architect"}, {Slot: 2, ID: "7.5", Label: "2024"}}},
		{"other number types", []any{
			obj("id", 7, "label", json.Number("42")),
			obj("id", int64(-3), "label", float32(1.5)),
			obj("id", 1e21, "label", math.Copysign(0, -1)),
			obj("id", uint64(18446744073709551615), "label", int32(5)),
		}, "", "",
			[]Option{{Slot: 1, ID: "7", Label: "42"}, {Slot: 2, ID: "-3", Label: "1.5"}, {Slot: 3, ID: "1000000000000000000000", Label: "0"}, {Slot: 4, ID: "18446744073709551615", Label: "5"}}},
		{"a typed slice of objects", []map[string]any{obj("id", "x", "label", "X")}, "", "",
			[]Option{{Slot: 1, ID: "x", Label: "X"}}},
		{"empty strings are kept", []any{obj("id", "", "label", "")}, "", "",
			[]Option{{Slot: 1, ID: "", Label: ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := BuildOptions("list", tc.value, true, tc.idField, tc.lblField)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("BuildOptions (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("25 elements keep the first 20", func(t *testing.T) {
		t.Parallel()
		got, err := BuildOptions("list", many, true, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != MaxOptions {
			t.Fatalf("len = %d, want %d", len(got), MaxOptions)
		}
		for i, o := range got {
			want := Option{Slot: i + 1, ID: strconv.Itoa(i + 1), Label: "Option " + strconv.Itoa(i+1)}
			if o != want {
				t.Errorf("option %d = %+v, want %+v", i, o, want)
			}
		}
	})
}

func TestBuildOptionsTruncatesLabels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, label, want string
	}{
		{"ascii 100 to 80", strings.Repeat("abcde", 20), strings.Repeat("abcde", 16)},
		{"two-byte runes", strings.Repeat("é", 100), strings.Repeat("é", 80)},
		{"mixed widths", strings.Repeat("a日😀", 40), strings.Repeat("a日😀", 26) + "a日"},
		{"exactly 80 is untouched", strings.Repeat("ß", 80), strings.Repeat("ß", 80)},
		{"81 loses one", strings.Repeat("x", 81), strings.Repeat("x", 80)},
		{"short", "Cast iron skillet", "Cast iron skillet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := BuildOptions("list", []any{obj("id", "1", "label", tc.label)}, true, "", "")
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Label != tc.want {
				t.Errorf("label = %q, want %q", got[0].Label, tc.want)
			}
		})
	}
}

func TestBuildOptionsErrors(t *testing.T) {
	t.Parallel()
	const p = `optionsFrom "jobPostings.data": `
	tests := []struct {
		name              string
		value             any
		found             bool
		idField, lblField string
		want              string
		is                error
	}{
		{"missing", nil, false, "", "", p + "no value at this path", ErrNoValue},
		{"null", nil, true, "", "", p + "not an array (got null)", ErrNotArray},
		{"object", obj("data", []any{}), true, "", "", p + "not an array (got an object)", ErrNotArray},
		{"string", "1,2,3", true, "", "", p + "not an array (got a string)", ErrNotArray},
		{"number", 3.0, true, "", "", p + "not an array (got a number)", ErrNotArray},
		{"other Go type", []string{"a"}, true, "", "", p + "not an array (got a []string)", ErrNotArray},
		{"empty", []any{}, true, "", "", p + "the array is empty", ErrEmptyArray},
		{"empty typed", []map[string]any{}, true, "", "", p + "the array is empty", ErrEmptyArray},
		{"non-object element", []any{obj("id", "1", "label", "A"), "B"}, true, "", "",
			p + "element 1 is not an object (got a string)", ErrBadElement},
		{"null element", []any{nil}, true, "", "", p + "element 0 is not an object (got null)", ErrBadElement},
		{"missing id", []any{obj("label", "A")}, true, "", "", p + `element 0 has no "id" field`, ErrBadElement},
		{"missing label", []any{obj("id", "1", "label", "A"), obj("id", "2")}, true, "", "",
			p + `element 1 has no "label" field`, ErrBadElement},
		{"missing custom id", []any{obj("id", "1", "description", "A")}, true, "order_id", "description",
			p + `element 0 has no "order_id" field`, ErrBadElement},
		{"missing custom label", []any{obj("order_id", "1", "label", "A")}, true, "order_id", "description",
			p + `element 0 has no "description" field`, ErrBadElement},
		{"object id", []any{obj("id", obj("v", 1), "label", "A")}, true, "", "",
			p + `element 0 field "id" is an object, not a string or number`, ErrBadElement},
		{"array label", []any{obj("id", "1", "label", []any{"A"})}, true, "", "",
			p + `element 0 field "label" is an array, not a string or number`, ErrBadElement},
		{"null id", []any{obj("id", nil, "label", "A")}, true, "", "",
			p + `element 0 field "id" is null, not a string or number`, ErrBadElement},
		{"boolean label", []any{obj("id", "1", "label", true)}, true, "", "",
			p + `element 0 field "label" is a boolean, not a string or number`, ErrBadElement},
		{"NaN id", []any{obj("id", math.NaN(), "label", "A")}, true, "", "",
			p + `element 0 field "id" is not a finite number`, ErrBadElement},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := BuildOptions("jobPostings.data", tc.value, tc.found, tc.idField, tc.lblField)
			if err == nil {
				t.Fatalf("BuildOptions = %+v, want error %q", got, tc.want)
			}
			if got != nil {
				t.Errorf("options = %+v alongside an error", got)
			}
			if err.Error() != tc.want {
				t.Errorf("error = %q\n want %q", err, tc.want)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%q, %v) = false", err, tc.is)
			}
		})
	}
}

func TestOptionMaps(t *testing.T) {
	t.Parallel()
	opts := []Option{{Slot: 1, ID: "18", Label: "Data Scientist"}, {Slot: 2, ID: "19", Label: "Solution Architect"}}
	wantMap := map[string]any{"slot": 2, "id": "19", "label": "Solution Architect"}
	if diff := cmp.Diff(wantMap, opts[1].Map()); diff != "" {
		t.Errorf("Map (-want +got):\n%s", diff)
	}
	want := []any{
		map[string]any{"slot": 1, "id": "18", "label": "Data Scientist"},
		map[string]any{"slot": 2, "id": "19", "label": "Solution Architect"},
	}
	if diff := cmp.Diff(want, TemplateOptions(opts)); diff != "" {
		t.Errorf("TemplateOptions (-want +got):\n%s", diff)
	}
	if got := TemplateOptions(nil); got == nil || len(got) != 0 {
		t.Errorf("TemplateOptions(nil) = %#v, want an empty list", got)
	}
	b, err := json.Marshal(opts[1])
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"slot":2,"id":"19","label":"Solution Architect"}` {
		t.Errorf("JSON = %s", b)
	}
}
