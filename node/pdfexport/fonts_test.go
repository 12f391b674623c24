package pdfexport

import "testing"

func TestCoverage(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want bool
	}{
		{'A', true}, {'é', true}, {'ß', true}, {'Ω', true}, {'ά', true}, {'Ж', true}, {'ї', true},
		{'€', true}, {'•', true}, {'\uFFFD', true}, {'Ա', true}, {'ა', true},
		{'中', false}, {'あ', false}, {'한', false}, {'क', false}, {'ก', false},
	} {
		if got := covered[c.r]; got != c.want {
			t.Errorf("covered[%q] = %v, want %v", c.r, got, c.want)
		}
	}
}

func TestClean(t *testing.T) {
	for _, c := range []struct {
		in, want string
		lines    bool
		n        int
	}{
		{"Héllo Ωμέγα Привет", "Héllo Ωμέγα Привет", false, 0},
		{"a\tb\r\nc", "a b\nc", true, 0},
		{"a\nb", "a b", false, 0},
		{"hi 😀 中文", "hi \uFFFD \uFFFD\uFFFD", false, 3},
		{"zero\u200bwidth\x00", "zerowidth", false, 0},
	} {
		got, n := clean(c.in, c.lines)
		if got != c.want || n != c.n {
			t.Errorf("clean(%q) = %q, %d; want %q, %d", c.in, got, n, c.want, c.n)
		}
	}
}
