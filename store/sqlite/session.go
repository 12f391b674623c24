package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
)

// scanSession reads sessionCols.
func scanSession(v []driver.Value) store.Session {
	return store.Session{ID: i64(v[0]), WorkspaceID: i64(v[1]), AgentID: i64(v[2]),
		Identity: text(v[3]), Status: text(v[4]), ClientExternalID: text(v[5]),
		Channel: text(v[6]), CreatedAt: msTime(v[7]), EndedAt: msTimePtr(v[8]), ParentSessionID: i64(v[9])}
}

// scanMessage reads messageCols.
func scanMessage(v []driver.Value) store.Message {
	return store.Message{ID: i64(v[0]), WorkspaceID: i64(v[1]), SessionID: i64(v[2]),
		Role: text(v[3]), Text: text(v[4]), Mood: text(v[5]), RunID: i64(v[6]),
		TurnComplete: i64(v[7]) != 0, CreatedAt: msTime(v[8])}
}

// CreateSession inserts ss OPEN; its agent must be the workspace's own.
func (s *Store) CreateSession(ctx context.Context, ss store.Session) (store.Session, error) {
	ss.CreatedAt = fromMs(msOrNow(ss.CreatedAt))
	ss.Status, ss.EndedAt = store.SessionOpen, nil
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qInsSession, ss.WorkspaceID, ss.AgentID, ss.Identity, ss.ClientExternalID,
			ss.Channel, ms(ss.CreatedAt), nullID(ss.ParentSessionID))
		ss.ID = i64(v0(v))
		return err
	})
	if err != nil {
		return store.Session{}, fmt.Errorf("creating session of agent %d: %w", ss.AgentID, mapErr(err))
	}
	return ss, nil
}

// Session reads a session of ws.
func (s *Store) Session(ctx context.Context, ws, id int64) (store.Session, error) {
	var ss store.Session
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(qSession, id, ws)
		if err != nil {
			return err
		}
		ss = scanSession(v)
		return nil
	})
	if err != nil {
		return store.Session{}, fmt.Errorf("reading session %d: %w", id, mapErr(err))
	}
	return ss, nil
}

// SetIdentity changes the session's identity; a change cancels its OPEN
// wait in the same transaction, since the question was asked of someone
// else.
func (s *Store) SetIdentity(ctx context.Context, ws, id int64, identity string) error {
	err := s.write(ctx, func(c *conn) error {
		n, err := c.exec(qSetIdentity, id, ws, identity)
		if err != nil {
			return err
		}
		if n == 0 {
			// Unchanged, or not ws's: only the latter is an error.
			return sessionIn(c, ws, id)
		}
		_, err = c.exec(qCancelWait, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("setting identity of session %d: %w", id, err)
	}
	return nil
}

// EndSession marks the session ENDED and cancels its OPEN wait. Ending an
// ended session changes nothing: it keeps its first endedAt.
func (s *Store) EndSession(ctx context.Context, ws, id int64) error {
	err := s.write(ctx, func(c *conn) error {
		return endSession(c, ws, id, msOrNow(time.Time{}))
	})
	if err != nil {
		return fmt.Errorf("ending session %d: %w", id, err)
	}
	return nil
}

func endSession(c *conn, ws, id, at int64) error {
	n, err := c.exec(qEndSession, id, ws, at)
	if err != nil {
		return err
	}
	if n == 0 {
		return sessionIn(c, ws, id)
	}
	_, err = c.exec(qCancelWait, id)
	return err
}

// sessionIn returns ErrNotFound unless session id is ws's.
func sessionIn(c *conn, ws, id int64) error {
	_, err := c.row(qSessionIn, id, ws)
	return mapErr(err)
}

// AppendMessage adds m to its session's transcript outside any run.
func (s *Store) AppendMessage(ctx context.Context, m store.Message) (store.Message, error) {
	m.CreatedAt = fromMs(msOrNow(m.CreatedAt))
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qAppendMessage, m.WorkspaceID, m.SessionID, m.Role, m.Text, m.Mood,
			nullID(m.RunID), m.TurnComplete, ms(m.CreatedAt))
		m.ID = i64(v0(v))
		return err
	})
	if err != nil {
		return store.Message{}, fmt.Errorf("appending a message to session %d: %w", m.SessionID, mapErr(err))
	}
	return m, nil
}

// Messages lists the session's transcript in id order; ErrNotFound when the
// session is not ws's.
func (s *Store) Messages(ctx context.Context, ws, sessionID int64) ([]store.Message, error) {
	out, err := listOfSession(ctx, s, qMessages, ws, sessionID, scanMessage)
	if err != nil {
		return nil, fmt.Errorf("listing messages of session %d: %w", sessionID, err)
	}
	return out, nil
}

// listOfSession reads a session's rows of one kind; an empty result is
// ErrNotFound when the session is not ws's, so another workspace's id never
// reads as an empty list.
func listOfSession[T any](ctx context.Context, s *Store, q query, ws, sessionID int64, scan func([]driver.Value) T) ([]T, error) {
	var out []T
	err := s.read(ctx, func(c *conn) error {
		r, err := c.query(q, sessionID, ws)
		if err != nil {
			return err
		}
		defer r.close()
		for {
			ok, err := r.next()
			if err != nil || !ok {
				if err == nil && len(out) == 0 {
					err = sessionIn(c, ws, sessionID)
				}
				return err
			}
			out = append(out, scan(r.vals))
		}
	})
	return out, err
}
