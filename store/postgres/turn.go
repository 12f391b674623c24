package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
	"github.com/wetel/wetel/vocab"
)

// startTurnSQL gives the claimed wait its outcome and inserts the run and
// the message that names it in one statement, so in one round trip and
// atomically. The session must be OPEN, and it is locked FOR SHARE first:
// setSessionIdentity and endSession lock it FOR UPDATE before they cancel
// its waits, so the two take their locks in one order (session, then wait)
// and one of them sees what the other did. A claim that finds the wait no
// longer OPEN leaves the run a fresh one. The session, the workflow and the
// run resumed from must all be the workspace's own (the resumed run the same
// session's); when one is not, nothing is inserted.
const startTurnSQL = `WITH s AS (
		SELECT id FROM sessions WHERE id = $2 AND workspace_id = $1 AND status = 'OPEN' FOR SHARE
	), c AS (
		UPDATE waits SET status = $13
		WHERE id = $14 AND workspace_id = $1 AND session_id = $2 AND status = 'OPEN' AND EXISTS (SELECT 1 FROM s)
		RETURNING 1
	), r AS (
		INSERT INTO runs (workspace_id, session_id, workflow_id, version, status,
			resumed_from_run_id, node_trace, error, error_code, started_at)
		SELECT $1, $2, $3, $4, 'RUNNING',
			CASE WHEN $14::bigint IS NULL OR EXISTS (SELECT 1 FROM c) THEN $5::bigint END, $6, '', '', $7
		WHERE EXISTS (SELECT 1 FROM s)
		AND (NOT $15::boolean OR EXISTS (SELECT 1 FROM c))
		AND ($3::bigint IS NULL OR EXISTS (SELECT 1 FROM workflows WHERE id = $3 AND workspace_id = $1))
		AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = $5 AND session_id = $2))
		RETURNING id, resumed_from_run_id
	), m AS (
		INSERT INTO messages (workspace_id, session_id, role, text, mood, run_id, turn_complete, created_at)
		SELECT $1, $2, $8, $9, $10, r.id, $11, $12 FROM r WHERE $8 <> ''
		RETURNING id
	)
	SELECT r.id, (SELECT id FROM m), coalesce(r.resumed_from_run_id, 0), EXISTS (SELECT 1 FROM c) FROM r`

// StartTurn inserts the RUNNING run and the user's message, which names it;
// a message with no role (a task's turn) is not written.
func (s *Store) StartTurn(ctx context.Context, t store.TurnStart) (store.Run, store.Message, error) {
	if err := check.TurnStart(&t); err != nil {
		return store.Run{}, store.Message{}, fmt.Errorf("starting turn: %w", err)
	}
	r, m := t.Run, t.Message
	r.Status, r.FinishedAt, r.Error, r.ErrorCode = vocab.RunRunning, nil, "", ""
	r.StartedAt, m.CreatedAt = orNow(r.StartedAt), orNow(m.CreatedAt)
	var msgID *int64
	var claimStatus string
	var claimWait *int64
	required := false
	if cl := t.Claim; cl != nil {
		claimStatus, claimWait, required = cl.Status, &cl.WaitID, cl.Required
	}
	var won bool
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		err := c.QueryRow(ctx, startTurnSQL, r.WorkspaceID, r.SessionID, nullID(r.WorkflowID), r.Version,
			nullID(r.ResumedFromRunID), jsonText(r.NodeTrace), r.StartedAt,
			m.Role, m.Text, m.Mood, m.TurnComplete, m.CreatedAt, claimStatus, claimWait, required).Scan(&r.ID, &msgID, &r.ResumedFromRunID, &won)
		if errors.Is(err, pgx.ErrNoRows) {
			var status string
			e := c.QueryRow(ctx, `SELECT status FROM sessions WHERE id = $1 AND workspace_id = $2`, r.SessionID, r.WorkspaceID).Scan(&status)
			switch {
			case e == nil && status != store.SessionOpen:
				return store.ErrSessionEnded
			case e == nil && required:
				// A required claim lost: the wait already had its outcome,
				// and nothing was written.
				return fmt.Errorf("wait %d already has its outcome: %w", *claimWait, store.ErrConflict)
			}
		}
		return err
	})
	if t.Claim != nil {
		t.Claim.Won = err == nil && won
	}
	if err != nil {
		return store.Run{}, store.Message{}, fmt.Errorf("starting turn in session %d: %w", r.SessionID, mapErr(err))
	}
	if msgID == nil {
		return r, store.Message{}, nil
	}
	m.ID, m.RunID = *msgID, r.ID
	return r, m, nil
}

// EndTurn finishes the run and writes what the turn left, all or nothing,
// in one round trip (see sendEndTurn).
func (s *Store) EndTurn(ctx context.Context, t store.TurnEnd) error {
	if err := check.TurnEnd(&t); err != nil {
		return fmt.Errorf("ending turn of run %d: %w", t.Run.ID, err)
	}
	for i := range t.Messages {
		if m := t.Messages[i]; m.RunID != 0 && m.RunID != t.Run.ID {
			return fmt.Errorf("ending turn of run %d: message %d names run %d: %w", t.Run.ID, i, m.RunID, store.ErrNotFound)
		}
	}
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		if err := sendEndTurn(ctx, c, &t); err != nil {
			return explainEndTurn(ctx, c, &t, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("ending turn of run %d: %w", t.Run.ID, err)
	}
	return nil
}

// explainEndTurn turns a step that changed nothing into the sentinel that
// says why, now that the transaction is gone.
func explainEndTurn(ctx context.Context, c *pgx.Conn, t *store.TurnEnd, err error) error {
	var one int
	switch {
	case errors.Is(err, errRunNotRunning):
		e := c.QueryRow(ctx, `SELECT 1 FROM runs WHERE id = $1 AND workspace_id = $2`,
			t.Run.ID, t.Run.WorkspaceID).Scan(&one)
		if e != nil {
			return mapErr(e)
		}
		return fmt.Errorf("run %d is no longer running: %w", t.Run.ID, store.ErrConflict)
	case errors.Is(err, errWaitNotOpen):
		e := c.QueryRow(ctx, `SELECT 1 FROM waits WHERE id = $1 AND workspace_id = $2
			AND session_id = (SELECT session_id FROM runs WHERE id = $3)`,
			t.CloseWait.WaitID, t.Run.WorkspaceID, t.Run.ID).Scan(&one)
		if e != nil {
			return fmt.Errorf("closing wait %d: %w", t.CloseWait.WaitID, mapErr(e))
		}
		return fmt.Errorf("closing wait %d: no longer open: %w", t.CloseWait.WaitID, store.ErrConflict)
	}
	return err
}
