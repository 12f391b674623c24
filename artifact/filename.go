package artifact

import (
	"strings"
	"unicode/utf8"
)

// maxFilename bounds SafeFilename's result, in bytes.
const maxFilename = 120

// SafeFilename is name made safe to write as a file and to put in a
// Content-Disposition header: ASCII letters, digits, '-' and '_' only in
// the stem (anything else becomes '-', a run of it one), the extension
// (up to 10 such characters after the last dot) kept, at most 120 bytes.
// A stem with nothing left is "artifact".
func SafeFilename(name string) string {
	stem, ext := name, ""
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		if e := clean(name[i+1:]); e != "" && len(e) <= 10 && !strings.Contains(e, "-") {
			stem, ext = name[:i], "."+e
		}
	}
	stem = clean(stem)
	if len(stem) > maxFilename-len(ext) {
		stem = strings.TrimRight(stem[:maxFilename-len(ext)], "-")
	}
	if stem == "" {
		stem = "artifact"
	}
	return stem + ext
}

// clean keeps ASCII letters, digits, '-' and '_', turning each run of
// anything else into one '-', trimmed at both ends.
func clean(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-')
		if !ok {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return strings.Trim(b.String(), "-")
}
