// Package pdfexport is the pdf_export node: it renders a list of sections
// into a PDF in one of three fixed layouts, stores it as an artifact and
// writes {artifactId}. No model call. The PDF library (fpdf) is kept behind
// the doc interface; the renderer, one per server, is a capability
// (RendererKey), and so is the workspace's artifact store
// (artifact.StoreKey).
package pdfexport

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wetel/wetel/artifact"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "pdf_export",
		Summary: "Turns a list of sections held in a variable into a PDF in one of three fixed layouts.",
		Description: "sectionsVar names an array of sections `{heading, body, bullets, imageArtifactId}` (or text holding " +
			"one as JSON); every field is optional but a section needs one. body keeps its line breaks; bullets is an " +
			"array of text; imageArtifactId is an image artifact (PNG, JPEG or GIF) of the same workspace. Layouts: " +
			"`brochure` (A4 portrait, a coloured title band, then the sections down one column with their images " +
			"full width), `itinerary` (A4 portrait, each section a numbered stop on a timeline, images beside it) and " +
			"`slides` (16:9, a title slide, then one slide per section with its heading in a band and its image on the " +
			"right; text that does not fit at the smallest size continues on a further slide). The PDF is stored as an " +
			"artifact of kind pdf, named after the title, and outputVar receives {artifactId}; it is served by " +
			"GET /api/artifacts/{id} and the artifact(id) query. " +
			fmt.Sprintf("Limits: %d sections; a heading %d characters, a body %d, %d bullets of %d each, %d KB of text "+
				"in all; the rendered title %d characters; %d images, each at most %d MB and %d megapixels, %d MB "+
				"together; the PDF %d MB. ", MaxSections, MaxHeadingChars, MaxBodyChars, MaxBullets, MaxBulletChars,
				MaxTextBytes>>10, MaxTitleChars, MaxImages, MaxImageBytes>>20, MaxImagePixels/1_000_000,
				MaxImagesBytes>>20, MaxDocumentBytes>>20) +
			"Over a limit, a sections variable that is not set or malformed, or an image that is missing or not an " +
			"image, the node fails with INVALID_DATA naming the entry and the limit. One document renders at a time " +
			"per server: a render that finds another in progress fails at once with RATE_LIMITED (busy), so give it " +
			"a failure edge to retry or apologise. Text is set in DejaVu Sans, embedded: Latin, Greek, Cyrillic, " +
			"Armenian and Georgian are drawn; characters it lacks (Chinese, Japanese, Korean, Indic and Thai scripts, " +
			"emoji) are drawn as U+FFFD; Hebrew and Arabic have glyphs but no real support (mixed-direction text is not " +
			"reordered, Arabic letters are not joined).",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Fields: []node.Field{
			{Name: "sectionsVar", Kind: node.KindString, Format: node.FormatPath, Required: true, MaxLength: 256, Description: "Dot path of the sections array."},
			{Name: "layout", Kind: node.KindString, Required: true, Enum: Layouts, Description: "The layout: brochure, itinerary or slides."},
			{Name: "title", Kind: node.KindString, Format: node.FormatTemplate, MaxLength: 1024, Description: "The document title, as a template."},
			{Name: "outputVar", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable {artifactId} lands in."},
		},
		Examples: node.Examples(`{"sectionsVar": "tripDays", "layout": "itinerary", "title": "Your trip", "outputVar": "pdf"}`),
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

type config struct {
	SectionsVar string `json:"sectionsVar"`
	Layout      string `json:"layout"`
	Title       string `json:"title"`
	OutputVar   string `json:"outputVar"`
}

type executor struct {
	cfg   config
	title *tmpl.Template
}

func build(b node.BuildInput) (node.Executor, error) {
	e := &executor{}
	if err := b.Decode(&e.cfg); err != nil {
		return nil, err
	}
	if e.cfg.Title != "" {
		var err error
		if e.title, err = tmpl.Parse(e.cfg.Title); err != nil {
			return nil, fmt.Errorf("title: %w", err)
		}
	}
	return e, nil
}

func (e *executor) Execute(ctx context.Context, x *node.Exec) (node.Outcome, error) {
	label := fmt.Sprintf("pdf_export node %q", x.NodeID)
	r, _ := RendererKey.Get(x.Services)
	store, _ := artifact.StoreKey.Get(x.Services)
	if r == nil || store == nil {
		return node.Outcome{}, node.Unavailable(x.NodeType, x.NodeID, "PDF rendering and artifact storage are not available here; run it on the server or with wetel run, or in mock mode with a mockResponse")
	}
	v, ok := node.Lookup(x.Vars, e.cfg.SectionsVar)
	if !ok || v == nil {
		return node.Outcome{}, invalid(label, fmt.Errorf("sectionsVar %q: the variable is not set", e.cfg.SectionsVar))
	}
	title := ""
	if e.title != nil {
		var err error
		if title, err = e.title.Render(x.Vars); err != nil {
			return node.Outcome{}, invalid(label, fmt.Errorf("title: %w", err))
		}
	}
	q := Request{Layout: e.cfg.Layout, Title: title, Sections: v, Images: store.Get}
	if x.Clock != nil {
		q.Created = x.Clock.Now()
	}
	data, err := r.Render(ctx, q)
	var in *InputError
	switch {
	case errors.Is(err, ErrBusy):
		return node.Outcome{}, &failure.Error{Code: failure.RateLimited, Message: label + ": busy: " + ErrBusy.Error() + "; try again shortly"}
	case errors.As(err, &in):
		msg := in.Error()
		if rest, ok := strings.CutPrefix(msg, "sections"); ok {
			msg = fmt.Sprintf("sectionsVar %q", e.cfg.SectionsVar) + rest
		}
		return node.Outcome{}, &failure.Error{Code: failure.InvalidData, Message: label + ": " + msg}
	case err != nil:
		return node.Outcome{}, &failure.Error{Code: failure.Unknown, Message: label + ": rendering the PDF", Err: err}
	}
	name := title
	if name == "" {
		name = "document"
	}
	a, err := store.Put(ctx, artifact.Artifact{Kind: artifact.PDF, Name: artifact.SafeFilename(name) + ".pdf",
		ContentType: "application/pdf", Data: data, CreatedAt: q.Created})
	if err != nil {
		return node.Outcome{}, &failure.Error{Code: failure.Unknown, Message: label + ": storing the PDF", Err: err}
	}
	x.Vars[e.cfg.OutputVar] = map[string]any{"artifactId": a.ID}
	return node.Outcome{}, nil
}

func invalid(label string, err error) error {
	return &failure.Error{Code: failure.InvalidData, Message: label, Err: err}
}
