package node

// Problem codes the rules of the built-in types report. They are declared
// here, beside the Rules that report them, and the graph package re-exports
// them with its own (graph.CodeSwitchLabels is CodeSwitchLabels), so a code
// is spelled once. A new type may declare its own codes in its package.
const (
	// Errors: they refuse a save or a publish.

	// CodeAwaitReplyEdges: an await_reply without the edges seed 000 requires.
	CodeAwaitReplyEdges = "AWAIT_REPLY_EDGES"
	// CodeSwitchLabels: a switch's edges do not match its cases one to one.
	CodeSwitchLabels = "SWITCH_LABELS"

	// Diagnostics: advice that never blocks publishing.

	// DiagBranchNeverTaken: an edge no run can follow.
	DiagBranchNeverTaken = "BRANCH_NEVER_TAKEN"
	// DiagConditionEdgeLabel: a condition edge labeled other than true/false.
	DiagConditionEdgeLabel = "CONDITION_EDGE_LABEL"
	// DiagConditionMissingOutcome: a condition with no edge for one outcome.
	DiagConditionMissingOutcome = "CONDITION_MISSING_BRANCH"
	// DiagRouterNoFallback: a router with no defaultTarget.
	DiagRouterNoFallback = "ROUTER_NO_FALLBACK"
	// DiagIgnoredOption: config the node ignores or clamps.
	DiagIgnoredOption = "IGNORED_OPTION"
)
