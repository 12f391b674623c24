package engine

import (
	"time"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/retry"
)

// Budget limit names on a BUDGET_EXCEEDED row.
const (
	BudgetMaxNodeExecutions = "maxNodeExecutions"
	BudgetDeadline          = "deadline"
)

// TraceRow is one entry of a run's nodeTrace, with the seed's field names.
// Fields that only some statuses carry are omitted elsewhere, so trace-parsing
// code sees exactly the fields the seed documents for each status.
type TraceRow struct {
	NodeID     string    `json:"nodeId"`
	NodeType   string    `json:"nodeType"`
	Status     string    `json:"status"`
	StartedAt  Timestamp `json:"startedAt"`
	FinishedAt Timestamp `json:"finishedAt"`
	Error      string    `json:"error,omitempty"`
	ErrorClass string    `json:"errorClass,omitempty"`
	// The fields of refusals, budget stops and calls live behind one
	// pointer: most rows have none of them, and a run's trace is its
	// largest allocation. JSON flattens them into the row.
	*TraceDetail
}

// TraceDetail holds the fields only some rows carry.
type TraceDetail struct {
	// VISIT_LIMIT_REACHED rows.
	VisitLimit int `json:"visitLimit,omitempty"`
	VisitCount int `json:"visitCount,omitempty"`
	// BUDGET_EXCEEDED rows.
	BudgetLimit          string `json:"budgetLimit,omitempty"`
	BudgetNodeExecutions *int   `json:"budgetNodeExecutions,omitempty"`
	BudgetElapsedMs      *int64 `json:"budgetElapsedMs,omitempty"`
	// Rows of a call that retried or failed.
	Attempts     []Attempt `json:"attempts,omitempty"`
	RetryOutcome string    `json:"retryOutcome,omitempty"`
	// Rows of a node that called a model (llm): what answered and what it
	// cost, never the prompt or the reply.
	Model     string               `json:"model,omitempty"`
	Provider  string               `json:"provider,omitempty"`
	TokensIn  int                  `json:"tokensIn,omitempty"`
	TokensOut int                  `json:"tokensOut,omitempty"`
	Cost      float64              `json:"cost,omitempty"`
	Fallbacks []node.ModelFallback `json:"fallbacks,omitempty"`
}

// withModel adds a model report to a row's detail.
func withModel(d *TraceDetail, m *node.ModelReport) *TraceDetail {
	if d == nil {
		d = &TraceDetail{}
	}
	d.Model, d.Provider, d.TokensIn, d.TokensOut, d.Cost, d.Fallbacks = m.Model, m.Provider, m.TokensIn, m.TokensOut, m.Cost, m.Fallbacks
	return d
}

// Attempt is one failed attempt of a call: n, errorClass, httpStatus when
// there was one, and waitMs, the wait that followed it; no error text, no
// body. It is retry's own record, so a call's attempts reach the trace row
// without copying.
type Attempt = retry.Attempt

// Timestamp marshals as RFC 3339 in UTC with milliseconds, as the seed shows
// ("2026-09-21T09:14:03.128Z").
type Timestamp time.Time

// MarshalJSON formats the time.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 26)
	b = append(b, '"')
	b = time.Time(t).UTC().AppendFormat(b, "2006-01-02T15:04:05.000Z")
	return append(b, '"'), nil
}

// UnmarshalJSON parses the format MarshalJSON writes (and any RFC 3339 time).
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	var v time.Time
	if err := v.UnmarshalJSON(b); err != nil {
		return err
	}
	*t = Timestamp(v)
	return nil
}

// Time returns the time.
func (t Timestamp) Time() time.Time { return time.Time(t) }
