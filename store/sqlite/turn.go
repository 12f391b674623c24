package sqlite

import (
	"context"
	"errors"
	"fmt"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
	"github.com/wetel/wetel/vocab"
	sqlite3 "modernc.org/sqlite/lib"
)

// StartTurn gives the claimed wait its outcome, then inserts the RUNNING run
// and the user's message, which names it, in one transaction, in a session
// that is still OPEN; a message with no role (a task's turn) is not written.
func (s *Store) StartTurn(ctx context.Context, t store.TurnStart) (store.Run, store.Message, error) {
	if err := check.TurnStart(&t); err != nil {
		return store.Run{}, store.Message{}, fmt.Errorf("starting turn: %w", err)
	}
	r, m := t.Run, t.Message
	r.Status, r.FinishedAt, r.Error, r.ErrorCode = vocab.RunRunning, nil, "", ""
	r.StartedAt = fromMs(msOrNow(r.StartedAt))
	m.CreatedAt = fromMs(msOrNow(m.CreatedAt))
	err := s.write(ctx, func(c *conn) error {
		r.ResumedFromRunID = t.Run.ResumedFromRunID
		if cl := t.Claim; cl != nil {
			n, err := c.exec(qClaimWait, cl.Status, cl.WaitID, r.WorkspaceID, r.SessionID)
			if err != nil {
				return err
			}
			if cl.Won = n == 1; !cl.Won {
				if cl.Required {
					return fmt.Errorf("wait %d already has its outcome: %w", cl.WaitID, store.ErrConflict)
				}
				r.ResumedFromRunID = 0
			}
		}
		var err error
		r.ID, err = c.insert(qInsRun, r.WorkspaceID, r.SessionID, nullID(r.WorkflowID), r.Version,
			nullID(r.ResumedFromRunID), jsonText(r.NodeTrace), ms(r.StartedAt))
		if errors.Is(mapErr(err), store.ErrNotFound) {
			// The insert asks for an OPEN session: say whether it ended.
			if v, e := c.row(qSessionStatus, r.SessionID, r.WorkspaceID); e == nil && text(v[0]) != store.SessionOpen {
				return store.ErrSessionEnded
			}
		}
		if err != nil {
			return mapErr(err)
		}
		if m.Role == "" {
			return nil // a task's turn: no message
		}
		m.RunID = r.ID
		m.ID, err = c.insert(qInsMessage, m.WorkspaceID, m.SessionID, m.Role, m.Text, m.Mood, m.RunID,
			m.TurnComplete, ms(m.CreatedAt))
		return err
	})
	if err != nil {
		return store.Run{}, store.Message{}, fmt.Errorf("starting turn in session %d: %w", r.SessionID, err)
	}
	if m.Role == "" {
		return r, store.Message{}, nil
	}
	return r, m, nil
}

// EndTurn finishes the run and writes what the turn left, all or nothing.
func (s *Store) EndTurn(ctx context.Context, t store.TurnEnd) error {
	if err := check.TurnEnd(&t); err != nil {
		return fmt.Errorf("ending turn of run %d: %w", t.Run.ID, err)
	}
	if err := s.write(ctx, func(c *conn) error { return endTurn(c, &t) }); err != nil {
		return fmt.Errorf("ending turn of run %d: %w", t.Run.ID, err)
	}
	return nil
}

// endTurn writes, in order: the run, its messages, the wait it closes, the
// wait it opens, the session's end. The first failure aborts them all.
func endTurn(c *conn, t *store.TurnEnd) error {
	r := &t.Run
	ws := r.WorkspaceID
	finished := msOrNow(derefTime(r.FinishedAt))
	v, err := c.row(qFinishRun, r.Status, jsonText(r.NodeTrace), r.Error, r.ErrorCode, finished, r.ID, ws)
	if errors.Is(err, errNoRow) {
		// Not ws's run, or no longer RUNNING: another writer ended it.
		if _, err := c.row(qRunIn, r.ID, ws); err != nil {
			return mapErr(err)
		}
		return fmt.Errorf("run %d is no longer running: %w", r.ID, store.ErrConflict)
	}
	if err != nil {
		return err
	}
	session := i64(v[0])
	for i := range t.Messages {
		m := &t.Messages[i]
		if err := check.EndMessage(m, r.ID, session); err != nil {
			return err
		}
		id, err := c.insert(qInsMessage, ws, session, m.Role, m.Text, m.Mood, r.ID,
			m.TurnComplete, msOrNow(m.CreatedAt))
		if err != nil {
			return err
		}
		m.ID = id
	}
	if cw := t.CloseWait; cw != nil {
		n, err := c.exec(qCloseWait, cw.Status, cw.WaitID, ws, session)
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := c.row(qWaitIn, cw.WaitID, ws, session); err != nil {
				return fmt.Errorf("closing wait %d: %w", cw.WaitID, mapErr(err))
			}
			return fmt.Errorf("closing wait %d: no longer open: %w", cw.WaitID, store.ErrConflict)
		}
	}
	if p := t.Pause; p != nil {
		if err := openWait(c, ws, session, r.ID, p); err != nil {
			return err
		}
	}
	if t.EndSession {
		return endSession(c, ws, session, finished)
	}
	return nil
}

// openWait inserts the pause's wait; the unique partial index refuses a
// second OPEN wait resumed by a reply for the session, which is ErrWaitExists.
func openWait(c *conn, ws, session, run int64, p *store.Pause) error {
	w := &p.Wait
	_, err := c.exec(qInsWait, ws, session, run, w.NodeID, w.Kind, w.ResumeOn, jsonText(w.State),
		w.Identity, nullMs(w.ExpiresAt), msOrNow(w.CreatedAt), jsonText(p.Snapshot))
	if code(err) == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
		return fmt.Errorf("opening a wait in session %d: %w", session, store.ErrWaitExists)
	}
	if err != nil {
		return fmt.Errorf("opening a wait in session %d: %w", session, err)
	}
	return nil
}
