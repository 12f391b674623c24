// Package generateartifact is the generate_artifact node: a model writes a
// document or draws an image, stored as an artifact. It is behind a platform
// switch that is off by default and is not available offline.
package generateartifact

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:         "generate_artifact",
		Summary:      "Asks a model to write a markdown document or an HTML page, or to draw an image, and stores it as an artifact.",
		Description:  "outputVar receives {artifactId}. Off unless the operator turns the platform switch on; a per-workspace spend cap applies.",
		Routing:      node.RouteAll,
		FailureEdges: true,
		Fields: []node.Field{
			{Name: "kind", Kind: node.KindString, Required: true, Enum: []string{"markdown", "html", "image"}, Description: "What to generate."},
			{Name: "promptTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes, Description: "The prompt, as a Handlebars template."},
			{Name: "outputVar", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable {artifactId} lands in."},
		},
		Examples: node.Examples(`{"kind": "markdown", "promptTemplate": "Summarise: {{notes}}", "outputVar": "summary"}`),
		// Runs is empty: artifact generation is not part of this build, and the type has no mock mode.
	})
}
