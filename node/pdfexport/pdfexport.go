// Package pdfexport is the pdf_export node: it renders sections into a PDF in
// a fixed layout. Rendering is not part of this build yet, so it runs in mock
// mode only.
package pdfexport

import (
	"github.com/wetel/wetel/node"
)

func init() {
	node.Register(&node.Spec{
		Type:         "pdf_export",
		Summary:      "Turns a list of sections held in a variable into a PDF in one of three fixed layouts.",
		Description:  "outputVar receives {artifactId}. One render at a time per server: a busy renderer takes the failure edge. No model call.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Fields: []node.Field{
			{Name: "sectionsVar", Kind: node.KindString, Format: node.FormatPath, Required: true, MaxLength: 256, Description: "Dot path of the sections array."},
			{Name: "layout", Kind: node.KindString, Required: true, Enum: []string{"brochure", "itinerary", "slides"}, Description: "The layout."},
			{Name: "title", Kind: node.KindString, Format: node.FormatTemplate, MaxLength: 1024, Description: "The document title, as a template."},
			{Name: "outputVar", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable {artifactId} lands in."},
		},
		Examples: node.Examples(`{"sectionsVar": "tripDays", "layout": "itinerary", "title": "Your trip", "outputVar": "pdf"}`),
		// Runs is empty: no PDF renderer is part of this build, so mock mode only.
	})
}
