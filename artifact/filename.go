package artifact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxFilename bounds SafeFilename's result, in bytes.
const maxFilename = 120

// SafeFilename is name made safe to write as a file and to put in a
// Content-Disposition header: ASCII letters, digits, '.', '-' and '_'
// only (anything else becomes '-', runs of it one), no leading dot, at
// most 120 bytes with the extension kept. A name with nothing left is
// "artifact".
func SafeFilename(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		ok := r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-')
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		if r == '.' && b.Len() == 0 {
			continue
		}
		b.WriteRune(r)
		dash = false
	}
	s := strings.Trim(b.String(), "-.")
	s = strings.ReplaceAll(s, "-.", ".")
	if len(s) > maxFilename {
		ext := ""
		if i := strings.LastIndexByte(s, '.'); i > 0 && len(s)-i <= 10 {
			ext = s[i:]
		}
		s = strings.TrimRight(s[:maxFilename-len(ext)], "-.") + ext
	}
	if s == "" || strings.HasPrefix(s, ".") {
		return "artifact" + s
	}
	return s
}
