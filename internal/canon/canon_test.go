package canon

import "testing"

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[true,null]}`, "{ \"b\": [true, null],\n \"a\": 1 }", true},
		{`{"a":1}`, `{"a":2}`, false},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{`{"n":12345678901234567890}`, `{"n":12345678901234567891}`, false}, // beyond float64
		{`"<&>"`, `"\u003c\u0026\u003e"`, true},
	} {
		got, err := Equal([]byte(c.a), []byte(c.b))
		if err != nil || got != c.want {
			t.Errorf("Equal(%s, %s) = %v, %v; want %v", c.a, c.b, got, err, c.want)
		}
	}
	for _, bad := range []string{``, `{"a":`, `{} {}`} {
		if _, err := Equal([]byte(bad), []byte(`{}`)); err == nil {
			t.Errorf("Equal(%q, {}) accepted invalid JSON", bad)
		}
	}
}
