package pdfexport

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkLargest renders a document at the text limits (50 sections,
// 200 KB of text with 30 bullets each) in each layout: how long a render
// holds the renderer at worst, images aside.
func BenchmarkLargest(b *testing.B) {
	body := strings.Repeat("Ελληνικά Русский Latin text of a long body that wraps. ", 37) // ≈2,950 bytes: 50 sections with their bullets come to just under MaxTextBytes
	bullets := make([]any, MaxBullets)
	for i := range bullets {
		bullets[i] = "A bullet point of middling length, Москва"
	}
	secs := make([]any, MaxSections)
	for i := range secs {
		secs[i] = map[string]any{"heading": "Heading of a section — Ακρόπολη", "body": body, "bullets": bullets}
	}
	for _, layout := range Layouts {
		b.Run(layout, func(b *testing.B) {
			r := NewRenderer()
			var size int
			for b.Loop() {
				out, err := r.Render(context.Background(), Request{Layout: layout, Title: "Largest", Sections: secs})
				if err != nil {
					b.Fatal(err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(size), "bytes/doc")
		})
	}
}
