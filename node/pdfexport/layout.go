package pdfexport

import (
	"fmt"
	"strconv"
	"strings"
)

// The layouts.
const (
	LayoutBrochure  = "brochure"
	LayoutItinerary = "itinerary"
	LayoutSlides    = "slides"
)

// Layouts lists them, for the spec's enum.
var Layouts = []string{LayoutBrochure, LayoutItinerary, LayoutSlides}

// slideW and slideH are a 16:9 slide, 10 × 5.625 inches.
const slideW, slideH = 254.0, 142.875

// page is one document to draw: its title, sections, and each section's
// image (registered in the doc) when it has one.
type page struct {
	title    string
	sections []section
	images   map[int]imageRef // by section index
}

type imageRef struct {
	name     string
	wpx, hpx float64
}

// ptMM is one typographic point in millimetres.
const ptMM = 25.4 / 72

var (
	white  = rgb{255, 255, 255}
	ink    = rgb{33, 37, 41}
	muted  = rgb{110, 117, 125}
	navy   = rgb{28, 53, 87}
	teal   = rgb{0, 128, 128}
	forest = rgb{27, 94, 74}
	mint   = rgb{214, 236, 226}
	slate  = rgb{38, 44, 56}
	amber  = rgb{232, 130, 30}
)

// draw lays p out in layout on d.
func draw(d doc, layout string, p page) error {
	switch layout {
	case LayoutBrochure:
		brochure(d, p)
	case LayoutItinerary:
		itinerary(d, p)
	case LayoutSlides:
		slides(d, p)
	default:
		return fmt.Errorf("unknown layout %q", layout)
	}
	return nil
}

// flow writes text down a column, starting a new page when the next line
// would not fit.
type flow struct {
	d             doc
	x, w          float64 // the column
	top, bottom   float64 // the writable band of a page after the first
	y             float64
	pageNo        int
	decorate      func(pageNo int) // draws a new page's header and footer
	beforeNewPage func()           // called on the old page before a break
}

func (f *flow) newPage() {
	if f.beforeNewPage != nil && f.pageNo > 0 {
		f.beforeNewPage()
	}
	f.d.AddPage()
	f.pageNo++
	f.y = f.top
	if f.decorate != nil {
		f.decorate(f.pageNo)
	}
}

// room starts a new page unless h more millimetres fit on this one.
func (f *flow) room(h float64) {
	if f.y+h > f.bottom {
		f.newPage()
	}
}

// lineH is the line height of a font size.
func lineH(size float64) float64 { return size * ptMM * 1.4 }

// text writes a paragraph (line ends kept) at indent within the column.
func (f *flow) text(s string, size float64, bold bool, c rgb, indent float64) {
	f.d.SetFont(bold, size)
	f.d.SetTextColor(c)
	lh := lineH(size)
	for _, para := range strings.Split(s, "\n") {
		lines := f.d.Lines(para, f.w-indent)
		if len(lines) == 0 {
			lines = []string{""}
		}
		for _, ln := range lines {
			f.room(lh)
			f.d.SetFont(bold, size) // a new page's decoration may have changed it
			f.d.SetTextColor(c)
			f.d.Text(f.x+indent, f.y+size*ptMM*1.05, ln)
			f.y += lh
		}
	}
}

// bullets writes a list, each item's first line marked with a dot.
func (f *flow) bullets(items []string, size float64, c, dot rgb) {
	lh := lineH(size)
	indent := size * ptMM * 1.6
	for _, it := range items {
		f.d.SetFont(false, size)
		lines := f.d.Lines(it, f.w-indent)
		if len(lines) == 0 {
			lines = []string{""}
		}
		for i, ln := range lines {
			f.room(lh)
			base := f.y + size*ptMM*1.05
			if i == 0 {
				f.d.SetFillColor(dot)
				f.d.Circle(f.x+indent*0.35, base-size*ptMM*0.33, size*ptMM*0.17, true)
			}
			f.d.SetFont(false, size)
			f.d.SetTextColor(c)
			f.d.Text(f.x+indent, base, ln)
			f.y += lh
		}
		f.y += lh * 0.15
	}
}

// image draws an image as wide as the column allows, at most maxW wide and
// maxH high, keeping its aspect ratio.
func (f *flow) image(im imageRef, maxW, maxH float64) {
	w, h := fit(im, min(maxW, f.w), maxH)
	f.room(h)
	f.d.Image(im.name, f.x, f.y, w, h)
	f.y += h
}

// fit scales an image into a box, keeping its aspect ratio.
func fit(im imageRef, boxW, boxH float64) (w, h float64) {
	if im.wpx <= 0 || im.hpx <= 0 {
		return boxW, boxH
	}
	w = boxW
	h = w * im.hpx / im.wpx
	if h > boxH {
		h = boxH
		w = h * im.wpx / im.hpx
	}
	return w, h
}

// footer draws the page number at the bottom centre.
func footer(d doc, pageNo int, pw, y float64) {
	d.SetFont(false, 8.5)
	d.SetTextColor(muted)
	n := strconv.Itoa(pageNo)
	d.Text((pw-d.Width(n))/2, y, n)
}

// brochure: A4 portrait; a coloured band with the title opens the first
// page; sections run down one column, each a heading with an accent mark,
// its body, bullets and image as wide as the column.
func brochure(d doc, p page) {
	pw, ph := d.PageSize()
	f := &flow{d: d, x: 22, w: pw - 44, top: 26, bottom: ph - 22}
	f.decorate = func(n int) {
		footer(d, n, pw, ph-10)
		if n == 1 {
			return
		}
		d.SetFont(false, 8.5)
		d.SetTextColor(muted)
		t := p.title
		if lines := d.Lines(t, pw-44); len(lines) > 0 {
			t = lines[0]
		}
		d.Text(22, 14, t)
		d.SetDrawColor(teal)
		d.SetLineWidth(0.4)
		d.Line(22, 17, pw-22, 17)
	}
	f.newPage()
	// The first page's band grows with the title.
	d.SetFont(true, 26)
	titleLines := d.Lines(p.title, pw-44)
	band := 24 + float64(len(titleLines))*lineH(26)
	d.SetFillColor(navy)
	d.Rect(0, 0, pw, band, true)
	d.SetFillColor(teal)
	d.Rect(0, band, pw, 2.2, true)
	d.SetTextColor(white)
	y := 16.0
	for _, ln := range titleLines {
		d.SetFont(true, 26)
		d.Text(22, y+26*ptMM*1.05, ln)
		y += lineH(26)
	}
	f.y = band + 14
	for i, s := range p.sections {
		if s.heading != "" {
			f.room(lineH(16) * 3) // a heading never ends a page
			d.SetFillColor(teal)
			d.Rect(f.x-5, f.y+1, 1.6, 16*ptMM*1.1, true)
			f.text(s.heading, 16, true, navy, 0)
			f.y += 1.5
		}
		if s.body != "" {
			f.text(s.body, 11, false, ink, 0)
			f.y += 2
		}
		if len(s.bullets) > 0 {
			f.bullets(s.bullets, 11, ink, teal)
		}
		if im, ok := p.images[i]; ok {
			f.y += 2
			f.image(im, f.w, 95)
		}
		f.y += 9
	}
}

// itinerary: A4 portrait; the title at the top, then a timeline: each
// section is a numbered stop on a line down the left, its heading, body,
// bullets and a picture beside the line.
func itinerary(d doc, p page) {
	pw, ph := d.PageSize()
	const railX, colX = 30.0, 44.0
	f := &flow{d: d, x: colX, w: pw - colX - 20, top: 24, bottom: ph - 22}
	railFrom := 0.0 // where the current stop's line starts on this page
	f.decorate = func(n int) {
		d.SetFillColor(forest)
		d.Rect(0, 0, pw, 6, true)
		footer(d, n, pw, ph-10)
		railFrom = f.top
	}
	rail := func(to float64) {
		if to > railFrom {
			d.SetDrawColor(mint)
			d.SetLineWidth(1.2)
			d.Line(railX, railFrom, railX, to)
		}
	}
	f.beforeNewPage = func() { rail(f.bottom) }
	f.newPage()
	d.SetFont(true, 22)
	d.SetTextColor(forest)
	f.text(p.title, 22, true, forest, -(colX - 20))
	d.SetDrawColor(forest)
	d.SetLineWidth(0.6)
	d.Line(20, f.y+2, pw-20, f.y+2)
	f.y += 12
	for i, s := range p.sections {
		f.room(lineH(14) * 3)
		railFrom = f.y + 12
		// The stop: a numbered disc on the rail.
		d.SetFillColor(forest)
		d.Circle(railX, f.y+4.5, 5, true)
		d.SetFont(true, 11)
		d.SetTextColor(white)
		n := strconv.Itoa(i + 1)
		d.Text(railX-d.Width(n)/2, f.y+4.5+11*ptMM*0.36, n)
		start := f.y
		if s.heading != "" {
			f.text(s.heading, 14, true, forest, 0)
			f.y += 1
		} else {
			f.y += 1.5 // the body starts level with the disc
		}
		if s.body != "" {
			f.text(s.body, 10.5, false, ink, 0)
			f.y += 1.5
		}
		if len(s.bullets) > 0 {
			f.bullets(s.bullets, 10.5, ink, forest)
		}
		if im, ok := p.images[i]; ok {
			f.y += 1.5
			f.image(im, 90, 60)
		}
		if f.y < start+12 {
			f.y = start + 12
		}
		f.y += 7
		if i < len(p.sections)-1 {
			rail(f.y)
		}
	}
}

// slides: 16:9 pages; a dark title slide, then one slide per section with
// its heading in a band across the top, body and bullets below it and the
// image on the right. Text that does not fit at the smallest size goes on
// to a further slide under the same heading.
func slides(d doc, p page) {
	pw, ph := d.PageSize()
	n := 0
	number := func() {
		n++
		d.SetFont(false, 8)
		d.SetTextColor(muted)
		s := strconv.Itoa(n)
		d.Text(pw-12-d.Width(s), ph-6, s)
	}
	// The title slide.
	d.AddPage()
	d.SetFillColor(slate)
	d.Rect(0, 0, pw, ph, true)
	size := 34.0
	d.SetFont(true, size)
	lines := d.Lines(p.title, pw-40)
	for len(lines) > 3 && size > 20 {
		size -= 2
		d.SetFont(true, size)
		lines = d.Lines(p.title, pw-40)
	}
	y := (ph - float64(len(lines))*lineH(size)) / 2
	d.SetTextColor(white)
	for _, ln := range lines {
		d.Text(20, y+size*ptMM*1.05, ln)
		y += lineH(size)
	}
	d.SetFillColor(amber)
	d.Rect(20, y+4, 40, 1.8, true)
	number()

	const bandH, margin = 26.0, 14.0
	for i, s := range p.sections {
		im, hasImage := p.images[i]
		textW := pw - 2*margin
		if hasImage {
			textW = pw*0.55 - margin
		}
		top, bottom := bandH+10, ph-14
		// The heading's size: the largest at which it takes one line of
		// the band, down to 14 pt for two. What a longer heading has
		// beyond two lines opens the text, on its first slide only.
		hs := 22.0
		d.SetFont(true, hs)
		hl := d.Lines(s.heading, pw-2*margin)
		for len(hl) > 1 && hs > 14 {
			hs -= 2
			d.SetFont(true, hs)
			hl = d.Lines(s.heading, pw-2*margin)
		}
		var rest []slideLine
		if len(hl) > 2 {
			for _, ln := range hl[2:] {
				rest = append(rest, slideLine{text: ln, size: hs, bold: true, h: lineH(hs)})
			}
			hl = hl[:2]
		}
		// The largest size at which the text fits on one slide, else the
		// smallest, continued.
		var body []slideLine
		for _, sz := range []float64{18, 16, 14, 12, 11} {
			body = slideText(d, s, textW, sz)
			if sz == 11 || heightOf(rest)+heightOf(body) <= bottom-top {
				break
			}
		}
		body = append(rest, body...)
		first := true
		for first || len(body) > 0 {
			d.AddPage()
			d.SetFillColor(slate)
			d.Rect(0, 0, pw, bandH, true)
			d.SetFillColor(amber)
			d.Rect(0, bandH, pw, 1.4, true)
			d.SetTextColor(white)
			hy := (bandH-float64(len(hl))*lineH(hs))/2 + hs*ptMM*1.05
			for _, ln := range hl {
				d.SetFont(true, hs)
				d.Text(margin, hy, ln)
				hy += lineH(hs)
			}
			if first && hasImage {
				w, h := fit(im, pw*0.45-margin-6, bottom-top)
				d.Image(im.name, pw-margin-w, top+(bottom-top-h)/2, w, h)
			}
			y := top
			for len(body) > 0 && y+body[0].h <= bottom+0.01 {
				l := body[0]
				body = body[1:]
				d.SetFont(l.bold, l.size)
				if l.dot {
					d.SetFillColor(amber)
					d.Circle(margin+l.size*ptMM*0.5, y+l.size*ptMM*0.72, l.size*ptMM*0.18, true)
				}
				d.SetTextColor(ink)
				d.Text(margin+l.indent, y+l.size*ptMM*1.05, l.text)
				y += l.h
			}
			number()
			first = false
		}
	}
}

// slideLine is one line of a slide's text.
type slideLine struct {
	text   string
	size   float64
	bold   bool
	dot    bool // the first line of a bullet
	indent float64
	h      float64
}

func slideText(d doc, s section, w, size float64) []slideLine {
	var out []slideLine
	lh := lineH(size)
	d.SetFont(false, size)
	for _, para := range strings.Split(s.body, "\n") {
		if s.body == "" {
			break
		}
		for _, ln := range d.Lines(para, w) {
			out = append(out, slideLine{text: ln, size: size, h: lh})
		}
	}
	if len(out) > 0 && len(s.bullets) > 0 {
		out[len(out)-1].h += lh * 0.5
	}
	indent := size * ptMM * 1.3
	for _, b := range s.bullets {
		for j, ln := range d.Lines(b, w-indent) {
			out = append(out, slideLine{text: ln, size: size, dot: j == 0, indent: indent, h: lh})
		}
		if len(out) > 0 {
			out[len(out)-1].h += lh * 0.25
		}
	}
	return out
}

func heightOf(lines []slideLine) float64 {
	h := 0.0
	for _, l := range lines {
		h += l.h
	}
	return h
}
