package pdfexport

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/go-pdf/fpdf"
)

// doc is what the layouts draw with: a page-oriented canvas in
// millimetres, origin at the top left. It is the only thing that knows
// the PDF library (fpdf, archived upstream), so replacing that library is
// one new implementation of this interface.
type doc interface {
	// AddPage starts a new page of the document's size.
	AddPage()
	// PageSize is the page's width and height.
	PageSize() (w, h float64)
	// SetFont picks the face and size (points) of the text that follows.
	SetFont(bold bool, size float64)
	SetTextColor(c rgb)
	SetFillColor(c rgb)
	SetDrawColor(c rgb)
	SetLineWidth(w float64)
	// Text draws s with its baseline at y.
	Text(x, y float64, s string)
	// Width is s's width in the current font.
	Width(s string) float64
	// Lines breaks s (no line ends in it) into lines at most w wide, at
	// spaces where it can.
	Lines(s string, w float64) []string
	Rect(x, y, w, h float64, fill bool)
	Circle(x, y, r float64, fill bool)
	Line(x1, y1, x2, y2 float64)
	// Image draws a registered image into the box; w or h 0 keeps its
	// aspect ratio.
	Image(name string, x, y, w, h float64)
	// AddImage registers an image (JPEG, PNG or GIF) under name and
	// returns its size in pixels.
	AddImage(name, format string, data []byte) (wpx, hpx float64, err error)
	// Write finishes the document; the first error of any call so far
	// is returned here.
	Write(w io.Writer) error
}

// rgb is a colour.
type rgb struct{ r, g, b int }

// docOptions is what every document gets.
type docOptions struct {
	w, h    float64 // the page size in mm; 0: A4 portrait
	title   string
	created time.Time
}

// fpdfDoc is doc on github.com/go-pdf/fpdf.
type fpdfDoc struct{ f *fpdf.Fpdf }

func newFpdf(o docOptions) doc {
	init := &fpdf.InitType{OrientationStr: fpdf.OrientationPortrait, UnitStr: fpdf.UnitMillimeter, SizeStr: fpdf.PageSizeA4}
	if o.w > 0 {
		init.SizeStr, init.Size = "", fpdf.SizeType{Wd: o.w, Ht: o.h}
	}
	f := fpdf.NewCustom(init)
	f.SetAutoPageBreak(false, 0) // the layouts break pages themselves
	f.SetMargins(0, 0, 0)
	f.SetCellMargin(0)
	f.AddUTF8FontFromBytes("body", "", fontRegular)
	f.AddUTF8FontFromBytes("body", "B", fontBold)
	f.SetTitle(o.title, true)
	f.SetCreator("Wetel pdf_export", true)
	f.SetProducer("Wetel", true)
	f.SetCatalogSort(true) // the same input gives the same bytes
	if !o.created.IsZero() {
		f.SetCreationDate(o.created)
		f.SetModificationDate(o.created)
	}
	return &fpdfDoc{f: f}
}

func (d *fpdfDoc) AddPage()                     { d.f.AddPage() }
func (d *fpdfDoc) PageSize() (float64, float64) { return d.f.GetPageSize() }
func (d *fpdfDoc) SetFont(bold bool, size float64) {
	style := ""
	if bold {
		style = "B"
	}
	d.f.SetFont("body", style, size)
}
func (d *fpdfDoc) SetTextColor(c rgb)                 { d.f.SetTextColor(c.r, c.g, c.b) }
func (d *fpdfDoc) SetFillColor(c rgb)                 { d.f.SetFillColor(c.r, c.g, c.b) }
func (d *fpdfDoc) SetDrawColor(c rgb)                 { d.f.SetDrawColor(c.r, c.g, c.b) }
func (d *fpdfDoc) SetLineWidth(w float64)             { d.f.SetLineWidth(w) }
func (d *fpdfDoc) Text(x, y float64, s string)        { d.f.Text(x, y, s) }
func (d *fpdfDoc) Width(s string) float64             { return d.f.GetStringWidth(s) }
func (d *fpdfDoc) Lines(s string, w float64) []string { return d.f.SplitText(s, w) }
func (d *fpdfDoc) Line(x1, y1, x2, y2 float64)        { d.f.Line(x1, y1, x2, y2) }
func (d *fpdfDoc) Rect(x, y, w, h float64, fill bool) {
	d.f.Rect(x, y, w, h, style(fill))
}
func (d *fpdfDoc) Circle(x, y, r float64, fill bool) { d.f.Circle(x, y, r, style(fill)) }

func style(fill bool) string {
	if fill {
		return "F"
	}
	return "D"
}

func (d *fpdfDoc) AddImage(name, format string, data []byte) (float64, float64, error) {
	info := d.f.RegisterImageOptionsReader(name, fpdf.ImageOptions{ImageType: format}, bytes.NewReader(data))
	if err := d.f.Error(); err != nil {
		return 0, 0, err
	}
	if info == nil {
		return 0, 0, fmt.Errorf("the image could not be read")
	}
	return info.Width(), info.Height(), nil
}

func (d *fpdfDoc) Image(name string, x, y, w, h float64) {
	d.f.ImageOptions(name, x, y, w, h, false, fpdf.ImageOptions{}, 0, "")
}

func (d *fpdfDoc) Write(w io.Writer) error {
	if err := d.f.Error(); err != nil {
		return err
	}
	return d.f.Output(w)
}
