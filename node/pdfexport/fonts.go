package pdfexport

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"strings"
	"unicode"
)

// The embedded fonts: DejaVu Sans 2.37 from Debian's fonts-dejavu-core
// (free licence in fonts/LICENSE). fpdf embeds only the glyphs a document
// uses, so a PDF carries tens of kilobytes of font, not the whole files.
var (
	//go:embed fonts/DejaVuSans.ttf
	fontRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	fontBold []byte
)

// covered holds the BMP characters both faces draw, read once from their
// cmap tables. fpdf draws a missing character as a box of some width, and
// one outside the BMP not at all (it panics), so text is cleaned against
// this before it is laid out.
var covered = func() []bool {
	reg, err1 := cmapCoverage(fontRegular)
	bold, err2 := cmapCoverage(fontBold)
	if err := errors.Join(err1, err2); err != nil {
		panic("pdfexport: embedded font: " + err.Error()) // the files are ours: a build error
	}
	for i := range reg {
		reg[i] = reg[i] && bold[i]
	}
	return reg
}()

// replacement stands in for a character the font cannot draw.
const replacement = '\uFFFD'

// clean makes s drawable: characters the font lacks (and everything beyond
// the BMP, such as emoji) become U+FFFD, tabs spaces, other control and
// format characters are dropped, and line ends are kept when keepLines.
// It reports how many characters were replaced.
func clean(s string, keepLines bool) (string, int) {
	var b strings.Builder
	b.Grow(len(s))
	n := 0
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r':
			if keepLines {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case r == '\t':
			b.WriteByte(' ')
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
		case r > 0xFFFF || !covered[r]:
			b.WriteRune(replacement)
			n++
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), n
}

// cmapCoverage reads which BMP characters a TrueType font maps to a glyph,
// from its format 4 (Unicode BMP) cmap subtable.
func cmapCoverage(ttf []byte) ([]bool, error) {
	u16 := func(b []byte, off int) (int, bool) {
		if off < 0 || off+2 > len(b) {
			return 0, false
		}
		return int(binary.BigEndian.Uint16(b[off:])), true
	}
	u32 := func(b []byte, off int) (int, bool) {
		if off < 0 || off+4 > len(b) {
			return 0, false
		}
		return int(binary.BigEndian.Uint32(b[off:])), true
	}
	bad := errors.New("not a TrueType font with a format 4 cmap")
	numTables, ok := u16(ttf, 4)
	if !ok {
		return nil, bad
	}
	cmap := -1
	for i := range numTables {
		rec := 12 + 16*i
		if rec+16 > len(ttf) {
			return nil, bad
		}
		if string(ttf[rec:rec+4]) == "cmap" {
			cmap, _ = u32(ttf, rec+8)
		}
	}
	if cmap < 0 {
		return nil, bad
	}
	n, _ := u16(ttf, cmap+2)
	sub := -1
	for i := range n {
		pid, _ := u16(ttf, cmap+4+8*i)
		eid, _ := u16(ttf, cmap+4+8*i+2)
		off, _ := u32(ttf, cmap+4+8*i+4)
		if (pid == 3 && eid == 1) || (pid == 0 && sub < 0) {
			if f, _ := u16(ttf, cmap+off); f == 4 {
				sub = cmap + off
			}
		}
	}
	if sub < 0 {
		return nil, bad
	}
	segX2, ok := u16(ttf, sub+6)
	if !ok {
		return nil, bad
	}
	ends, starts := sub+14, sub+16+segX2
	deltas, ranges := starts+segX2, starts+2*segX2
	out := make([]bool, 0x10000)
	for i := 0; i < segX2; i += 2 {
		end, ok1 := u16(ttf, ends+i)
		start, ok2 := u16(ttf, starts+i)
		delta, ok3 := u16(ttf, deltas+i)
		ro, ok4 := u16(ttf, ranges+i)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil, bad
		}
		for c := start; c <= end && c < 0xFFFF; c++ {
			g := 0
			if ro == 0 {
				g = (c + delta) & 0xFFFF
			} else {
				gv, ok := u16(ttf, ranges+i+ro+2*(c-start))
				if !ok {
					return nil, bad
				}
				if gv != 0 {
					g = (gv + delta) & 0xFFFF
				}
			}
			out[c] = g != 0
		}
	}
	return out, nil
}
