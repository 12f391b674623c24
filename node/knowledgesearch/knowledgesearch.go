// Package knowledgesearch is the knowledge_search node: it looks up passages
// of a knowledge base. Knowledge bases live in the server's store, so the node
// is not available offline.
package knowledgesearch

import (
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "knowledge_search",
		Summary: "Looks up the passages of a knowledge base that best match a query, with no model call.",
		Description: "outputVar receives [{passageId, documentId, title, text, score}]. A lookup error fails the node; " +
			"an empty result does not.",
		Routing: node.RouteAll,
		Fields: []node.Field{
			{Name: "knowledgeBaseId", Kind: node.KindInteger, Required: true, Min: node.Float(1), Description: "The knowledge base's id."},
			{Name: "queryTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes, Description: "The query, as a Handlebars template."},
			{Name: "topK", Kind: node.KindInteger, Default: 5, Min: node.Float(1), Max: node.Float(20), Description: "How many passages at most (1 to 20)."},
			{Name: "minScore", Kind: node.KindNumber, Min: node.Float(0), Description: "Leave out passages scoring below this."},
			{Name: "outputVar", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable the passages land in."},
		},
		Examples: node.Examples(`{"knowledgeBaseId": 3, "queryTemplate": "{{userMessage}}", "topK": 5, "outputVar": "passages"}`),
		// Runs is empty: knowledge bases are not part of this build, and the type has no mock mode.
	})
}
