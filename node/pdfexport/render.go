package pdfexport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // DecodeConfig of the formats fpdf draws
	_ "image/jpeg"
	_ "image/png"
	"strconv"
	"time"

	"github.com/wetel/wetel/artifact"
	"github.com/wetel/wetel/node"
)

// Renderer is the PDF capability: the server (or an offline command)
// provides one, shared by all its runs under RendererKey. It renders one
// document at a time; a render that finds it busy fails at once rather
// than queueing, so a burst of exports cannot hold a server's memory or
// cores (seed: "another document is rendering on the same server (busy)").
type Renderer struct {
	slot   chan struct{}
	newDoc func(docOptions) doc
}

// RendererKey is the capability under which a run finds the renderer.
var RendererKey = node.NewKey[*Renderer]("PDF renderer")

// NewRenderer returns a renderer on the embedded fonts.
func NewRenderer() *Renderer {
	return &Renderer{slot: make(chan struct{}, 1), newDoc: newFpdf}
}

// ErrBusy is the error of a render that found another one in progress.
var ErrBusy = errors.New("another document is rendering on this server")

// Request is one document to render.
type Request struct {
	Layout   string
	Title    string
	Sections any // the sections variable's value, checked by Render
	// Images reads an image artifact by id; nil when none may be used.
	Images  func(ctx context.Context, id int64) (artifact.Artifact, error)
	Created time.Time // the document's creation date; zero leaves it out
}

// InputError is an error of the request itself (the sections, an image,
// a limit), as opposed to the renderer's own. Its message starts with what
// it is about: "sections[2].body: …", "sections has 51 sections: …",
// "title: …", "the images …", "the document …".
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputErr(format string, args ...any) error {
	return &InputError{Err: fmt.Errorf(format, args...)}
}

// Render checks the request against the limits, then renders it. The
// images are read, and the document held, only while this render has the
// renderer, so a server holds at most one document's images at a time.
func (r *Renderer) Render(ctx context.Context, q Request) ([]byte, error) {
	sections, err := parseSections(q.Sections)
	if err != nil {
		if msg := err.Error(); msg != "" && msg[0] == '[' {
			return nil, inputErr("sections%w", err)
		}
		return nil, inputErr("sections %w", err)
	}
	title, _ := clean(q.Title, false)
	if n := len([]rune(title)); n > MaxTitleChars {
		return nil, inputErr("title: %d characters: the limit is %d", n, MaxTitleChars)
	}
	for i := range sections {
		s := &sections[i]
		s.heading, _ = clean(s.heading, false)
		s.body, _ = clean(s.body, true)
		for j := range s.bullets {
			s.bullets[j], _ = clean(s.bullets[j], false)
		}
	}
	select {
	case r.slot <- struct{}{}:
	default:
		return nil, ErrBusy
	}
	defer func() { <-r.slot }()

	o := docOptions{title: title, created: q.Created}
	if q.Layout == LayoutSlides {
		o.w, o.h = slideW, slideH
	}
	d := r.newDoc(o)
	p := page{title: title, sections: sections, images: map[int]imageRef{}}
	total := 0
	for i, s := range sections {
		if s.imageID == 0 {
			continue
		}
		ref, n, err := addImage(ctx, d, q.Images, i, s.imageID)
		if err != nil {
			return nil, err
		}
		if total += n; total > MaxImagesBytes {
			return nil, inputErr("the images hold %d bytes together: the limit is %d", total, MaxImagesBytes)
		}
		p.images[i] = ref
	}
	return write(d, q.Layout, p)
}

// addImage reads section i's image artifact, checks it and registers it.
func addImage(ctx context.Context, d doc, read func(context.Context, int64) (artifact.Artifact, error), i int, id int64) (imageRef, int, error) {
	at := fmt.Sprintf("sections[%d].imageArtifactId", i)
	if read == nil {
		return imageRef{}, 0, inputErr("%s: images are not available here", at)
	}
	a, err := read(ctx, id)
	if errors.Is(err, artifact.ErrNotFound) {
		return imageRef{}, 0, inputErr("%s: artifact %d not found", at, id)
	}
	if err != nil {
		return imageRef{}, 0, fmt.Errorf("%s: reading artifact %d: %w", at, id, err)
	}
	if a.Kind != artifact.Image {
		return imageRef{}, 0, inputErr("%s: artifact %d is a %s, not an image", at, id, a.Kind)
	}
	if len(a.Data) > MaxImageBytes {
		return imageRef{}, 0, inputErr("%s: artifact %d is %d bytes: the limit is %d", at, id, len(a.Data), MaxImageBytes)
	}
	// Checked here, before the PDF library reads it, so a huge or broken
	// image is refused by name rather than decoded.
	cfg, format, err := image.DecodeConfig(bytes.NewReader(a.Data))
	if err != nil {
		return imageRef{}, 0, inputErr("%s: artifact %d is not a PNG, JPEG or GIF image: %v", at, id, err)
	}
	if px := cfg.Width * cfg.Height; px > MaxImagePixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return imageRef{}, 0, inputErr("%s: artifact %d is %d × %d pixels: the limit is %d pixels", at, id, cfg.Width, cfg.Height, MaxImagePixels)
	}
	name := "img" + strconv.FormatInt(id, 10)
	var failed error
	func() {
		defer func() {
			if v := recover(); v != nil {
				failed = fmt.Errorf("the PDF library could not read it: %v", v)
			}
		}()
		_, _, failed = d.AddImage(name, format, a.Data)
	}()
	if failed != nil {
		return imageRef{}, 0, inputErr("%s: artifact %d: %v", at, id, failed)
	}
	return imageRef{name: name, wpx: float64(cfg.Width), hpx: float64(cfg.Height)}, len(a.Data), nil
}

// write draws and serialises the document. The PDF library is not ours:
// a panic in it is this render's error, never the process's end.
func write(d doc, layout string, p page) (out []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, fmt.Errorf("the PDF library failed: %v", v)
		}
	}()
	if err := draw(d, layout, p); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := d.Write(&buf); err != nil {
		return nil, err
	}
	if buf.Len() > MaxDocumentBytes {
		return nil, inputErr("the document is %d bytes: the limit is %d", buf.Len(), MaxDocumentBytes)
	}
	return buf.Bytes(), nil
}
