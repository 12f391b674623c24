package pdfexport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wetel/wetel/artifact"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
)

// memStore is one workspace's artifacts in memory. When gate is set, Get
// reports on entered and waits for gate to close: a render holding the
// renderer, on cue.
type memStore struct {
	mu      sync.Mutex
	items   map[int64]artifact.Artifact
	next    int64
	entered chan struct{}
	gate    chan struct{}
}

func (m *memStore) Put(_ context.Context, a artifact.Artifact) (artifact.Artifact, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.items == nil {
		m.items = map[int64]artifact.Artifact{}
	}
	m.next++
	a.ID = m.next
	m.items[a.ID] = a
	return a, nil
}

func (m *memStore) Get(_ context.Context, id int64) (artifact.Artifact, error) {
	if m.gate != nil {
		m.entered <- struct{}{}
		<-m.gate
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.items[id]
	if !ok {
		return artifact.Artifact{}, fmt.Errorf("artifact %d: %w", id, artifact.ErrNotFound)
	}
	return a, nil
}

// pngOf is a w × h PNG of a diagonal gradient.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(40 + 150*x/w), uint8(90 + 100*y/h), 160, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// run executes a pdf_export node with config cfg over vars.
func run(t *testing.T, r *Renderer, st artifact.Store, cfg string, vars map[string]any) (map[string]any, error) {
	t.Helper()
	ex, err := build(node.BuildInput{NodeID: "pdf", Type: "pdf_export", Config: json.RawMessage(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	svc := node.NewServices(RendererKey.With(r), artifact.StoreKey.With(st))
	x := &node.Exec{NodeID: "pdf", NodeType: "pdf_export", Vars: vars, Services: svc}
	_, err = ex.Execute(context.Background(), x)
	return vars, err
}

// The words each layout must carry, one per script.
var words = []string{"Lisbon", "Ακρόπολη", "Москва", "Ελληνικά", "Ярославль", "Café"}

func tripSections(imageID int64) []any {
	return []any{
		map[string]any{"heading": "Day 1 — Lisbon", "body": "Arrive in Lisbon, walk through Alfama.\nDinner at a Café by the river.",
			"bullets": []any{"Tram 28 at 10:00", "Castelo de São Jorge"}, "imageArtifactId": float64(imageID)},
		map[string]any{"heading": "Ημέρα 2 — Ακρόπολη", "body": "Ελληνικά: επίσκεψη στην Ακρόπολη και στο μουσείο.",
			"bullets": []any{"Παρθενώνας", "Πλάκα"}},
		map[string]any{"heading": "День 3 — Москва", "body": "Русский текст: прогулка по Красной площади.",
			"bullets": []any{"Третьяковская галерея", "Ярославль на выходные"}},
		map[string]any{"body": strings.Repeat("A long paragraph that wraps over many lines to test the flow. ", 40)},
	}
}

// TestLayouts renders each layout with Latin, Greek and Cyrillic text and
// finds the text again with poppler's pdftotext. With WETEL_PDF_KEEP set to
// a folder, the PDFs are written there to look at (pdftoppm -png).
func TestLayouts(t *testing.T) {
	st := &memStore{}
	img, _ := st.Put(context.Background(), artifact.Artifact{Kind: artifact.Image, Name: "map.png", ContentType: "image/png", Data: pngOf(t, 320, 200)})
	for _, layout := range Layouts {
		t.Run(layout, func(t *testing.T) {
			vars := map[string]any{"trip": map[string]any{"days": tripSections(img.ID)}, "who": "Ελένη"}
			vars, err := run(t, NewRenderer(), st, `{"sectionsVar": "trip.days", "layout": "`+layout+`", "title": "Trip plan for {{who}} — Путешествие", "outputVar": "pdf"}`, vars)
			if err != nil {
				t.Fatal(err)
			}
			id := vars["pdf"].(map[string]any)["artifactId"].(int64)
			a, _ := st.Get(context.Background(), id)
			if a.Kind != artifact.PDF || a.ContentType != "application/pdf" || a.Name != "Trip-plan-for.pdf" || !bytes.HasPrefix(a.Data, []byte("%PDF-")) {
				t.Fatalf("artifact %d: kind %s, type %s, name %q, starts %q", id, a.Kind, a.ContentType, a.Name, a.Data[:min(8, len(a.Data))])
			}
			if dir := os.Getenv("WETEL_PDF_KEEP"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, layout+".pdf"), a.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			text := pdfText(t, a.Data)
			for _, w := range append(words, "Ελένη", "Путешествие") {
				if !strings.Contains(text, w) {
					t.Errorf("the %s PDF's text lacks %q:\n%s", layout, w, text)
				}
			}
		})
	}
}

// pdfText extracts a PDF's text with pdftotext, skipping the test when
// poppler-utils is not installed.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	cmd := exec.Command(bin, "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// TestBusy: while one render holds the renderer (reading its image), a
// second fails at once with RATE_LIMITED; once the first is done, a third
// renders.
func TestBusy(t *testing.T) {
	st := &memStore{}
	img, _ := st.Put(context.Background(), artifact.Artifact{Kind: artifact.Image, Name: "a.png", ContentType: "image/png", Data: pngOf(t, 8, 8)})
	st.entered, st.gate = make(chan struct{}), make(chan struct{})
	r := NewRenderer()
	cfg := `{"sectionsVar": "s", "layout": "brochure", "outputVar": "pdf"}`
	first := make(chan error, 1)
	go func() {
		_, err := run(t, r, st, cfg, map[string]any{"s": []any{map[string]any{"heading": "one", "imageArtifactId": float64(img.ID)}}})
		first <- err
	}()
	<-st.entered // the first render has the renderer

	_, err := run(t, r, st, cfg, map[string]any{"s": []any{map[string]any{"heading": "two"}}})
	if failure.Classify(err) != failure.RateLimited || !strings.Contains(err.Error(), "busy") {
		t.Errorf("a concurrent render: %v (%s), want RATE_LIMITED busy", err, failure.Classify(err))
	}
	close(st.gate)
	if err := <-first; err != nil {
		t.Fatalf("the first render: %v", err)
	}
	st.gate = nil
	if _, err := run(t, r, st, cfg, map[string]any{"s": []any{map[string]any{"heading": "three"}}}); err != nil {
		t.Errorf("a render after the first finished: %v", err)
	}
}

// TestLimits: each malformed input or limit fails with INVALID_DATA
// naming where and which rule.
func TestLimits(t *testing.T) {
	st := &memStore{}
	img, _ := st.Put(context.Background(), artifact.Artifact{Kind: artifact.Image, Name: "a.png", ContentType: "image/png", Data: pngOf(t, 4, 4)})
	md, _ := st.Put(context.Background(), artifact.Artifact{Kind: artifact.Markdown, Name: "a.md", ContentType: "text/markdown", Data: []byte("# hi")})
	junk, _ := st.Put(context.Background(), artifact.Artifact{Kind: artifact.Image, Name: "b.png", ContentType: "image/png", Data: []byte("not an image")})
	huge, _ := st.Put(context.Background(), artifact.Artifact{Kind: artifact.Image, Name: "c.png", ContentType: "image/png", Data: hugePNG(t)})
	many := func(n int, s map[string]any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	for _, c := range []struct {
		name  string
		v     any
		title string
		want  string
	}{
		{"unset", nil, "", `sectionsVar "s": the variable is not set`},
		{"not an array", map[string]any{"heading": "x"}, "", `sectionsVar "s" must be an array of sections`},
		{"bad JSON text", "not json", "", `sectionsVar "s" is text that is not a JSON array`},
		{"empty", []any{}, "", `sectionsVar "s" is an empty array`},
		{"too many sections", many(MaxSections+1, map[string]any{"heading": "x"}), "", fmt.Sprintf("has %d sections: the limit is %d", MaxSections+1, MaxSections)},
		{"not an object", []any{"x"}, "", `sectionsVar "s"[0]: must be an object`},
		{"unknown field", []any{map[string]any{"heading": "x", "colour": "red"}}, "", `[0]: unknown field "colour"`},
		{"empty section", []any{map[string]any{"heading": ""}}, "", `[0]: is empty`},
		{"heading too long", []any{map[string]any{"heading": strings.Repeat("Ж", MaxHeadingChars+1)}}, "", fmt.Sprintf("[0].heading: %d characters: the limit is %d", MaxHeadingChars+1, MaxHeadingChars)},
		{"body too long", []any{map[string]any{"body": strings.Repeat("a", MaxBodyChars+1)}}, "", "[0].body: 10001 characters: the limit is 10000"},
		{"body not text", []any{map[string]any{"body": []any{"a"}}}, "", "[0].body: must be text, got an array"},
		{"bullets not an array", []any{map[string]any{"bullets": "a"}}, "", "[0].bullets: must be an array of text"},
		{"too many bullets", []any{map[string]any{"bullets": many(MaxBullets+1, nil)}}, "", "[0].bullets: has 31 bullets: the limit is 30"},
		{"bullet too long", []any{map[string]any{"bullets": []any{strings.Repeat("b", MaxBulletChars+1)}}}, "", "[0].bullets[0]: 501 characters: the limit is 500"},
		{"too much text", many(MaxSections, map[string]any{"body": strings.Repeat("é", MaxBodyChars/2+100)}), "", "bytes of text: the limit is 204800"},
		{"title too long", []any{map[string]any{"heading": "x"}}, strings.Repeat("t", MaxTitleChars+1), "title: 201 characters: the limit is 200"},
		{"bad image id", []any{map[string]any{"imageArtifactId": 1.5}}, "", "[0].imageArtifactId: must be a positive integer"},
		{"image not found", []any{map[string]any{"imageArtifactId": float64(999)}}, "", "[0].imageArtifactId: artifact 999 not found"},
		{"not an image", []any{map[string]any{"imageArtifactId": float64(md.ID)}}, "", fmt.Sprintf("artifact %d is a markdown, not an image", md.ID)},
		{"broken image", []any{map[string]any{"imageArtifactId": float64(junk.ID)}}, "", "is not a PNG, JPEG or GIF image"},
		{"too many pixels", []any{map[string]any{"imageArtifactId": float64(huge.ID)}}, "", "pixels: the limit is 16000000 pixels"},
		{"too many images", many(MaxImages+1, map[string]any{"imageArtifactId": float64(img.ID)}), "", "has 21 images: the limit is 20"},
	} {
		t.Run(c.name, func(t *testing.T) {
			vars := map[string]any{}
			if c.v != nil {
				vars["s"] = c.v
			}
			cfg := `{"sectionsVar": "s", "layout": "slides", "outputVar": "pdf"}`
			if c.title != "" {
				cfg = `{"sectionsVar": "s", "layout": "slides", "title": "` + c.title + `", "outputVar": "pdf"}`
			}
			vars, err := run(t, NewRenderer(), st, cfg, vars)
			if err == nil || failure.Classify(err) != failure.InvalidData || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v (%s), want INVALID_DATA containing %q", err, failure.Classify(err), c.want)
			}
			if _, ok := vars["pdf"]; ok {
				t.Error("a failed node wrote its outputVar")
			}
		})
	}
}

// hugePNG is a PNG whose header claims 5000 × 4000 pixels: refused from
// its header, never decoded.
func hugePNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 5000, 4000))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestJSONText: an llm's reply holding the sections as JSON text renders,
// and text the font lacks (emoji, CJK) does not stop it.
func TestJSONText(t *testing.T) {
	st := &memStore{}
	vars := map[string]any{"reply": `[{"heading": "Plan 😀", "body": "中文 and Ελληνικά", "bullets": ["one", 2, true]}]`}
	vars, err := run(t, NewRenderer(), st, `{"sectionsVar": "reply", "layout": "itinerary", "outputVar": "pdf"}`, vars)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := st.Get(context.Background(), vars["pdf"].(map[string]any)["artifactId"].(int64))
	if a.Name != "document.pdf" {
		t.Errorf("name %q, want document.pdf for an untitled document", a.Name)
	}
	if text := pdfText(t, a.Data); !strings.Contains(text, "Ελληνικά") || !strings.Contains(text, "Plan") {
		t.Errorf("text %q", text)
	}
}

// TestUnavailable: without the capabilities the node fails saying so.
func TestUnavailable(t *testing.T) {
	ex, _ := build(node.BuildInput{NodeID: "pdf", Type: "pdf_export", Config: json.RawMessage(`{"sectionsVar": "s", "layout": "slides", "outputVar": "pdf"}`)})
	_, err := ex.Execute(context.Background(), &node.Exec{NodeID: "pdf", NodeType: "pdf_export", Vars: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), "not available here") {
		t.Errorf("error %v", err)
	}
	var fe *failure.Error
	if !errors.As(err, &fe) {
		t.Errorf("error %T, want *failure.Error", err)
	}
}

// TestOddText: text a layout could trip on renders in every layout.
func TestOddText(t *testing.T) {
	odd := []any{
		map[string]any{"heading": " ", "body": "\n\n\n"},
		map[string]any{"heading": strings.Repeat("W", MaxHeadingChars), "body": strings.Repeat("W", MaxBodyChars)},
		map[string]any{"body": "\u200b\u200b", "bullets": []any{"", " ", "\n"}},
		map[string]any{"heading": "😀😀😀", "bullets": []any{strings.Repeat("Ж", MaxBulletChars)}},
		map[string]any{"body": "\r\n\t\x00\x7f tabs\tand\rreturns"},
	}
	for _, layout := range Layouts {
		for _, title := range []string{"", strings.Repeat("Ω", MaxTitleChars), "\n"} {
			out, err := NewRenderer().Render(context.Background(), Request{Layout: layout, Title: title, Sections: odd})
			if err != nil || !bytes.HasPrefix(out, []byte("%PDF-")) {
				t.Errorf("%s, title of %d bytes: %v", layout, len(title), err)
			}
		}
	}
}
