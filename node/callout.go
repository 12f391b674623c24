package node

// Fields shared by the node types that call other systems.

// TimeoutField bounds one attempt of a call (seed: "default 10s, ceiling 30s
// on action/webhook/tool nodes").
var TimeoutField = Field{Name: "timeoutMs", Kind: KindInteger, Default: 10000, Min: Float(1), Max: Float(30000),
	Description: "Time for one attempt in ms (default 10000, ceiling 30000)."}

// OutputVarField names where a call's result lands.
var OutputVarField = Field{Name: "outputVar", Kind: KindString, Format: FormatVariable, MaxLength: 128,
	Description: "The variable the result is stored in: {status, headers, data} for HTTP calls."}

// HeadersField holds request headers, each a string.
var HeadersField = Field{Name: "headers", Kind: KindObject, Values: &Field{Kind: KindString, MaxLength: 8192},
	Description: "Request headers. Values are sent as written; never put a secret here that you do not want stored with the graph."}
