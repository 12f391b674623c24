package check

import (
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// Limit returns n, or def when n is 0. A negative n or one above max is
// refused rather than cut, so a client never mistakes a short page for the
// last one.
func Limit(n, def, max int) (int, error) {
	if n == 0 {
		return def, nil
	}
	if n < 0 || n > max {
		return 0, invalid("limit %d: want 1 to %d", n, max)
	}
	return n, nil
}

// SessionQuery checks q and fills in its default limit.
func SessionQuery(q *store.SessionQuery) error {
	switch q.Status {
	case "", store.SessionOpen, store.SessionEnded:
	default:
		return invalid("session status %q: want %s or %s", q.Status, store.SessionOpen, store.SessionEnded)
	}
	if q.BeforeID < 0 {
		return invalid("beforeId %d: must not be negative", q.BeforeID)
	}
	var err error
	q.Limit, err = Limit(q.Limit, store.DefaultListLimit, store.MaxListLimit)
	return err
}

// RunQuery checks q and fills in its default limit.
func RunQuery(q *store.RunQuery) error {
	switch q.Status {
	case "", vocab.RunRunning, vocab.RunCompleted, vocab.RunFailed, vocab.RunAwaitingInput,
		vocab.RunAwaitingApproval, vocab.RunInterrupted:
	default:
		return invalid("run status %q: not a run status", q.Status)
	}
	if q.BeforeID < 0 {
		return invalid("beforeId %d: must not be negative", q.BeforeID)
	}
	var err error
	q.Limit, err = Limit(q.Limit, store.DefaultListLimit, store.MaxListLimit)
	return err
}

// EventLimit returns the limit EventsAfter uses for limit.
func EventLimit(limit int) (int, error) {
	return Limit(limit, store.DefaultEventLimit, store.MaxEventLimit)
}

// WorkflowSettings checks the settings an UpdateWorkflow sets.
func WorkflowSettings(u *store.WorkflowSettings) error {
	if u.Name != nil {
		if err := Name("workflow", *u.Name); err != nil {
			return err
		}
	}
	if n := u.NotifyOnFailure; n != nil && *n != store.NotifyNone && *n != store.NotifyOwners {
		return invalid("workflow notifyOnFailure %q: want %s or %s", *n, store.NotifyNone, store.NotifyOwners)
	}
	return nil
}

// AgentSettings checks the settings an UpdateAgent sets.
func AgentSettings(u *store.AgentSettings) error {
	if u.Name != nil {
		if err := Name("agent", *u.Name); err != nil {
			return err
		}
	}
	if u.WorkflowID != nil && *u.WorkflowID < 0 {
		return invalid("agent workflowId %d: must not be negative", *u.WorkflowID)
	}
	return nil
}
