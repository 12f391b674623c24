package callout

import "github.com/wetel/wetel/node"

// Fields shared by the node types that call other systems.

// TimeoutField bounds one attempt of a call (seed: "default 10s, ceiling 30s
// on action/webhook/tool nodes").
var TimeoutField = node.Field{Name: "timeoutMs", Kind: node.KindInteger, Default: 10000, Min: node.Float(1), Max: node.Float(30000),
	Description: "Time for one attempt in ms (default 10000, ceiling 30000)."}

// OutputVarField names where a call's result lands.
var OutputVarField = node.Field{Name: "outputVar", Kind: node.KindString, Format: node.FormatVariable, MaxLength: 128,
	Description: "The variable the result is stored in: {status, headers, data} for HTTP calls."}

// HeadersField holds request headers, each a string.
var HeadersField = node.Field{Name: "headers", Kind: node.KindObject, Values: &node.Field{Kind: node.KindString, MaxLength: 8192},
	Description: "Request headers. Values are sent as written; never put a secret here that you do not want stored with the graph."}
