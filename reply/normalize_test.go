package reply

import (
	"testing"
	"unicode"
)

func TestNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"architect", "architect"},
		{"Solution Architect", "solution architect"},
		{"  solution-architect!  ", "solution architect"},
		{"Product Managers", "product manager"},
		{"Linen duvet cover, queen", "linen duvet cover queen"},
		{"I'd like it", "i d like it"},
		{"N/A", "n a"},
		{"POD-40", "pod 40"},
		{"POD40", "pod40"},
		{"40s", "40s"},
		{"bus class glass", "bus class glass"},
		{"Walnut Desk Lamps", "walnut desk lamp"},
		{"Développeur", "developpeur"},
		{"De\u0301veloppeur", "developpeur"},
		{"\u0301lone mark", "lone mark"},
		{"Straße ẞ", "strasse ss"},
		{"Æsir Þór Œuvre", "aesir thor oeuvre"},
		{"İstanbul ılık", "istanbul ilik"},
		{"Tiếng Việt", "tieng viet"},
		{"Ștefan Țara", "stefan tara"},
		{"3×4 ÷ 2", "3 4 2"},
		{"ИНЖЕНЕРЫ", "инженеры"},
		{"हिंदी", "हिंदी"},
		{"東京 タワー", "東京 タワー"},
		{"👍 ok 🏗️", "ok"},
		{"a\u00a0b\tc\nd", "a b c d"},
		{"\xff\xfeabc", "abc"},
		{"!!!", ""},
	}
	for _, tc := range tests {
		if got := normalize(tc.in); got != tc.want {
			t.Errorf("normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := normalize(tc.want); got != tc.want {
			t.Errorf("normalize is not idempotent on %q: %q", tc.want, got)
		}
	}
}

func TestFoldTables(t *testing.T) {
	t.Parallel()
	if len(latin1) != 0x100-0xC0 || len(latinExtA) != 0x180-0x100 || len(vietnamese) != 0x1EFA-0x1EA0 {
		t.Fatalf("table sizes %d, %d, %d", len(latin1), len(latinExtA), len(vietnamese))
	}
	for _, span := range [][2]rune{{0xC0, 0x17F}, {0x1EA0, 0x1EF9}} {
		for r := span[0]; r <= span[1]; r++ {
			f := foldLatin(r)
			if (f != "") != unicode.IsLetter(r) {
				t.Errorf("foldLatin(%q) = %q, but IsLetter = %v", r, f, unicode.IsLetter(r))
			}
			// An upper-case letter and its lower case fold alike.
			if l := unicode.ToLower(r); l != r && foldLatin(l) != "" && foldLatin(l) != f {
				t.Errorf("foldLatin(%q) = %q but foldLatin(%q) = %q", r, f, l, foldLatin(l))
			}
		}
	}
	for r, want := range map[rune]string{
		'À': "a", 'Ç': "c", 'Ñ': "n", 'Ø': "o", 'ü': "u", 'ÿ': "y", 'ð': "d", 'ß': "ss",
		'Ą': "a", 'Č': "c", 'Đ': "d", 'Ę': "e", 'Ğ': "g", 'Ħ': "h", 'ı': "i", 'Ĵ': "j",
		'ĸ': "k", 'Ł': "l", 'Ň': "n", 'Ő': "o", 'Ř': "r", 'Š': "s", 'Ŧ': "t", 'Ů': "u",
		'Ŵ': "w", 'Ÿ': "y", 'Ž': "z", 'ſ': "s", 'Ạ': "a", 'ệ': "e", 'Ị': "i", 'ợ': "o",
		'ự': "u", 'ỹ': "y", 'ặ': "a", 'Ẹ': "e", 'ỉ': "i", 'Ọ': "o", 'Ụ': "u", 'Ỳ': "y",
		'Ý': "y", 'Þ': "th", 'þ': "th", 'Ĳ': "ij", 'œ': "oe", 'ẞ': "ss", 'Ț': "t", 'ơ': "o", 'Ǔ': "u", 'a': "", 'Ω': "", '×': "",
	} {
		if got := foldLatin(r); got != want {
			t.Errorf("foldLatin(%q) = %q, want %q", r, got, want)
		}
	}
}
