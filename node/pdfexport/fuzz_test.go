package pdfexport

import (
	"context"
	"errors"
	"testing"
)

// FuzzRender: any sections text either renders or is refused as input;
// never a panic, never the renderer's own error.
func FuzzRender(f *testing.F) {
	f.Add(`[{"heading": "Day 1", "body": "Lisbon\nΑθήνα", "bullets": ["Москва"]}]`, uint8(0))
	f.Add(`[{"body": "😀 中文 \u0000"}, {"bullets": [1, true, null]}]`, uint8(2))
	f.Add(`[{"imageArtifactId": 3}]`, uint8(1))
	r := NewRenderer()
	f.Fuzz(func(t *testing.T, sections string, layout uint8) {
		_, err := r.Render(context.Background(), Request{Layout: Layouts[int(layout)%len(Layouts)], Title: sections, Sections: sections})
		var in *InputError
		if err != nil && !errors.As(err, &in) {
			t.Fatalf("Render(%q): %v", sections, err)
		}
	})
}
