package approval

import "github.com/wetel/wetel/node"

// rules: the expiry is clamped like await_reply's.
var rules = node.Rules{
	Diagnose: func(n *node.View) []node.Problem { return n.ClampedExpiry("expiresAfterSeconds", node.MaxWaitExpiry) },
}
