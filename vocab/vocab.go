// Package vocab is the words every layer of Wetel shares: run statuses,
// trace statuses, wait statuses, edge labels, the option an await_reply
// question offers and the names of the turn facts. Each is declared here
// once, so the engine, the store, the API and the checks cannot drift apart.
// It imports nothing of the project: any package may import it.
package vocab

// Run statuses (PLATFORM §3).
const (
	RunRunning          = "RUNNING"
	RunCompleted        = "COMPLETED"
	RunFailed           = "FAILED"
	RunAwaitingInput    = "AWAITING_INPUT"
	RunAwaitingApproval = "AWAITING_APPROVAL"
	RunInterrupted      = "INTERRUPTED"
)

// RunStatuses lists every run status, in the order the API documents them.
var RunStatuses = []string{RunRunning, RunCompleted, RunFailed, RunAwaitingInput, RunAwaitingApproval, RunInterrupted}

// Trace row statuses (seed 001's nodeTrace).
const (
	TraceCompleted         = "COMPLETED"
	TraceFailed            = "FAILED"
	TraceFailedHandled     = "FAILED_HANDLED"
	TraceVisitLimitReached = "VISIT_LIMIT_REACHED"
	TraceBudgetExceeded    = "BUDGET_EXCEEDED"
)

// Wait statuses: a wait is OPEN until it gets exactly one outcome.
const (
	WaitOpen      = "OPEN"
	WaitAnswered  = "ANSWERED"
	WaitExpired   = "EXPIRED"
	WaitCancelled = "CANCELLED"
)

// What resumes a wait. A session holds at most one OPEN wait that the next
// message answers (seed 000: "One open question per session"); waits
// resumed by a decision (an approval) do not count against it.
const (
	ResumeOnReply    = "reply"
	ResumeOnDecision = "decision"
)
