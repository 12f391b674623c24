package llm

import "github.com/wetel/wetel/node"

// rules: a structured reply is parsed whole, so it never streams.
var rules = node.Rules{
	Diagnose: func(n *node.View) []node.Problem {
		if n.Bool("stream") && n.Has("outputSchema") {
			return []node.Problem{n.Ignored("stream", "a structured reply (outputSchema) is parsed whole, never streamed")}
		}
		return nil
	},
}
