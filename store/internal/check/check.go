// Package check validates what a caller hands a driver before, or while, its
// SQL runs, so both drivers refuse the same inputs with the same errors.
package check

import (
	"fmt"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// CloseStatus reports whether s is a status a wait may be closed with.
func CloseStatus(s string) error {
	switch s {
	case vocab.WaitAnswered, vocab.WaitExpired, vocab.WaitCancelled:
		return nil
	}
	return fmt.Errorf("closing a wait as %q: want %s, %s or %s",
		s, vocab.WaitAnswered, vocab.WaitExpired, vocab.WaitCancelled)
}

// FinalStatus reports whether s may end a run: anything known but RUNNING.
func FinalStatus(s string) error {
	switch s {
	case vocab.RunCompleted, vocab.RunFailed, vocab.RunAwaitingInput,
		vocab.RunAwaitingApproval, vocab.RunInterrupted:
		return nil
	}
	return fmt.Errorf("ending a run as %q: not a final run status", s)
}

// TurnStart fills the message's workspace and session from the run's and
// refuses a message that names others: a turn's rows all belong to one
// session. A mismatch reads as ErrNotFound, as any cross-workspace id does.
func TurnStart(t *store.TurnStart) error {
	m, r := &t.Message, &t.Run
	if m.WorkspaceID == 0 {
		m.WorkspaceID = r.WorkspaceID
	}
	if m.SessionID == 0 {
		m.SessionID = r.SessionID
	}
	if m.WorkspaceID != r.WorkspaceID || m.SessionID != r.SessionID {
		return fmt.Errorf("message of session %d in workspace %d for a run of session %d in workspace %d: %w",
			m.SessionID, m.WorkspaceID, r.SessionID, r.WorkspaceID, store.ErrNotFound)
	}
	if c := t.Claim; c != nil {
		if c.Status != vocab.WaitAnswered && c.Status != vocab.WaitCancelled {
			return fmt.Errorf("claiming wait %d as %q: a turn answers or cancels the wait it found: %w", c.WaitID, c.Status, store.ErrInvalid)
		}
		if c.Status == vocab.WaitCancelled && r.ResumedFromRunID != 0 {
			return fmt.Errorf("a run resumed from run %d cannot cancel the wait it resumes: %w", r.ResumedFromRunID, store.ErrInvalid)
		}
		c.Won = false
	}
	return nil
}

// TurnEnd checks an EndTurn's statuses and workspaces before its
// transaction starts.
func TurnEnd(t *store.TurnEnd) error {
	if err := FinalStatus(t.Run.Status); err != nil {
		return err
	}
	if t.CloseWait != nil {
		if err := CloseStatus(t.CloseWait.Status); err != nil {
			return err
		}
	}
	for i := range t.Messages {
		if ws := t.Messages[i].WorkspaceID; ws != 0 && ws != t.Run.WorkspaceID {
			return fmt.Errorf("message %d of run %d is of workspace %d: %w", i, t.Run.ID, ws, store.ErrNotFound)
		}
	}
	return nil
}

// EndMessage reports whether m, written by the run of session in an
// EndTurn, may be: a message naming another session or run is refused.
func EndMessage(m *store.Message, runID, session int64) error {
	if (m.SessionID != 0 && m.SessionID != session) || (m.RunID != 0 && m.RunID != runID) {
		return fmt.Errorf("message of session %d and run %d written by run %d of session %d: %w",
			m.SessionID, m.RunID, runID, session, store.ErrNotFound)
	}
	return nil
}
