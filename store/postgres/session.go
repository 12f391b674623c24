package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
)

// CreateSession inserts ss OPEN; its agent must be the workspace's own.
func (s *Store) CreateSession(ctx context.Context, ss store.Session) (store.Session, error) {
	ss.CreatedAt = orNow(ss.CreatedAt)
	ss.Status, ss.EndedAt = store.SessionOpen, nil
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO sessions (workspace_id, agent_id, identity, status,
			client_external_id, channel, created_at, parent_session_id)
			SELECT $1, $2, $3, 'OPEN', $4, $5, $6, $7
			WHERE EXISTS (SELECT 1 FROM agents WHERE id = $2 AND workspace_id = $1)
			AND ($7::bigint IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id = $7 AND workspace_id = $1))
			RETURNING id`,
			ss.WorkspaceID, ss.AgentID, ss.Identity, ss.ClientExternalID, ss.Channel, ss.CreatedAt, nullID(ss.ParentSessionID)).Scan(&ss.ID)
	})
	if err != nil {
		return store.Session{}, fmt.Errorf("creating session of agent %d: %w", ss.AgentID, mapErr(err))
	}
	return ss, nil
}

// Session reads a session of ws.
func (s *Store) Session(ctx context.Context, ws, id int64) (store.Session, error) {
	var ss store.Session
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT `+sessionCols+` FROM sessions WHERE id = $1 AND workspace_id = $2`, id, ws).
			Scan(&ss.ID, &ss.WorkspaceID, &ss.AgentID, &ss.Identity, &ss.Status,
				&ss.ClientExternalID, &ss.Channel, &ss.CreatedAt, &ss.EndedAt, &ss.ParentSessionID)
	})
	if err != nil {
		return store.Session{}, fmt.Errorf("reading session %d: %w", id, mapErr(err))
	}
	ss.CreatedAt, ss.EndedAt = ss.CreatedAt.UTC(), utcPtr(ss.EndedAt)
	return ss, nil
}

// SetIdentity changes the session's identity; a change cancels its OPEN
// wait in the same statement, since the question was asked of someone
// else.
func (s *Store) SetIdentity(ctx context.Context, ws, id int64, identity string) error {
	err := s.lockedChange(ctx, `WITH s AS (
			SELECT id, identity FROM sessions WHERE id = $1 AND workspace_id = $2 FOR UPDATE
		)
		UPDATE sessions SET identity = $3 FROM s
		WHERE sessions.id = s.id AND s.identity <> $3 RETURNING sessions.id`, id, ws, identity)
	if err != nil {
		return fmt.Errorf("setting identity of session %d: %w", id, err)
	}
	return nil
}

// EndSession marks the session ENDED and cancels its OPEN wait. Ending an
// ended session changes nothing: it keeps its first endedAt.
func (s *Store) EndSession(ctx context.Context, ws, id int64) error {
	err := s.lockedChange(ctx, `WITH s AS (
			SELECT id, status FROM sessions WHERE id = $1 AND workspace_id = $2 FOR UPDATE
		)
		UPDATE sessions SET status = 'ENDED', ended_at = $3 FROM s
		WHERE sessions.id = s.id AND s.status = 'OPEN' RETURNING sessions.id`, id, ws, orNow(time.Time{}))
	if err != nil {
		return fmt.Errorf("ending session %d: %w", id, err)
	}
	return nil
}

// lockedChange runs change, a statement that locks session $1 of workspace
// $2 FOR UPDATE and returns its id when it changed it, and then, when it
// did, cancels the session's open waits in a second statement of the same
// transaction. The second statement's snapshot is taken after the lock is
// held, so it sees a wait that a turn holding the session FOR SHARE opened
// just before: a wait is never left OPEN by a change that should cancel it.
func (s *Store) lockedChange(ctx context.Context, change string, args ...any) error {
	return s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, change, args...)
			if err != nil {
				return err
			}
			changed, err := pgx.CollectRows(rows, pgx.RowTo[int64])
			if err != nil {
				return err
			}
			if len(changed) == 0 {
				// Unchanged (the same identity, an ended session) or not ws's.
				var one int
				return mapErr(tx.QueryRow(ctx, `SELECT 1 FROM sessions WHERE id = $1 AND workspace_id = $2`, args[0], args[1]).Scan(&one))
			}
			_, err = tx.Exec(ctx, `UPDATE waits SET status = 'CANCELLED' WHERE session_id = $1 AND status = 'OPEN'`, args[0])
			return err
		})
	})
}

// one runs a statement that answers how many rows it found: none is
// ErrNotFound.
func (s *Store) one(ctx context.Context, sql string, args ...any) error {
	return s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var n int64
		if err := c.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return store.ErrNotFound
		}
		return nil
	})
}

// sessionIn returns ErrNotFound unless session id is ws's.
func sessionIn(ctx context.Context, c *pgx.Conn, ws, id int64) error {
	var one int
	err := c.QueryRow(ctx, `SELECT 1 FROM sessions WHERE id = $1 AND workspace_id = $2`, id, ws).Scan(&one)
	return mapErr(err)
}

// AppendMessage adds m to its session's transcript outside any run.
func (s *Store) AppendMessage(ctx context.Context, m store.Message) (store.Message, error) {
	m.CreatedAt = orNow(m.CreatedAt)
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO messages (workspace_id, session_id, role, text, mood,
			run_id, turn_complete, created_at)
			SELECT $1, $2, $3, $4, $5, $6, $7, $8
			WHERE EXISTS (SELECT 1 FROM sessions WHERE id = $2 AND workspace_id = $1)
			AND ($6::bigint IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = $6 AND session_id = $2))
			RETURNING id`,
			m.WorkspaceID, m.SessionID, m.Role, m.Text, m.Mood, nullID(m.RunID), m.TurnComplete,
			m.CreatedAt).Scan(&m.ID)
	})
	if err != nil {
		return store.Message{}, fmt.Errorf("appending a message to session %d: %w", m.SessionID, mapErr(err))
	}
	return m, nil
}

// Messages lists the session's transcript in id order; ErrNotFound when the
// session is not ws's.
func (s *Store) Messages(ctx context.Context, ws, sessionID int64) ([]store.Message, error) {
	var out []store.Message
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT id, workspace_id, session_id, role, text, mood,
			coalesce(run_id, 0), turn_complete, created_at
			FROM messages WHERE session_id = $1 AND workspace_id = $2 ORDER BY id`, sessionID, ws)
		if err != nil {
			return err
		}
		var m store.Message
		_, err = pgx.ForEachRow(rows, []any{&m.ID, &m.WorkspaceID, &m.SessionID, &m.Role, &m.Text,
			&m.Mood, &m.RunID, &m.TurnComplete, &m.CreatedAt}, func() error {
			m.CreatedAt = m.CreatedAt.UTC()
			out = append(out, m)
			return nil
		})
		if err == nil && len(out) == 0 {
			err = sessionIn(ctx, c, ws, sessionID)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing messages of session %d: %w", sessionID, err)
	}
	return out, nil
}
