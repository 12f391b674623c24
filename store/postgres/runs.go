package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
)

const runCols = `id, workspace_id, session_id, coalesce(workflow_id, 0), version, status,
	coalesce(resumed_from_run_id, 0), node_trace, error, error_code, started_at, finished_at`

// runScan holds the destinations of runCols.
type runScan struct {
	r     store.Run
	trace []byte
}

func (x *runScan) dest() []any {
	r := &x.r
	return []any{&r.ID, &r.WorkspaceID, &r.SessionID, &r.WorkflowID, &r.Version, &r.Status,
		&r.ResumedFromRunID, &x.trace, &r.Error, &r.ErrorCode, &r.StartedAt, &r.FinishedAt}
}

func (x *runScan) run() store.Run {
	r := x.r
	r.NodeTrace, r.StartedAt, r.FinishedAt = rawJSON(x.trace), r.StartedAt.UTC(), utcPtr(r.FinishedAt)
	return r
}

// Run reads a run of ws.
func (s *Store) Run(ctx context.Context, ws, id int64) (store.Run, error) {
	var x runScan
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT `+runCols+` FROM runs WHERE id = $1 AND workspace_id = $2`,
			id, ws).Scan(x.dest()...)
	})
	if err != nil {
		return store.Run{}, fmt.Errorf("reading run %d: %w", id, mapErr(err))
	}
	return x.run(), nil
}

// RunsBySession lists a session's runs in id order; ErrNotFound when the
// session is not ws's.
func (s *Store) RunsBySession(ctx context.Context, ws, sessionID int64) ([]store.Run, error) {
	var out []store.Run
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT `+runCols+` FROM runs
			WHERE session_id = $1 AND workspace_id = $2 ORDER BY id`, sessionID, ws)
		if err != nil {
			return err
		}
		var x runScan
		_, err = pgx.ForEachRow(rows, x.dest(), func() error {
			out = append(out, x.run())
			x = runScan{}
			return nil
		})
		if err == nil && len(out) == 0 {
			err = sessionIn(ctx, c, ws, sessionID)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing runs of session %d: %w", sessionID, err)
	}
	return out, nil
}

// RecoverRuns fails every RUNNING run of every workspace with reason.
func (s *Store) RecoverRuns(ctx context.Context, reason string) (int, error) {
	var n int64
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		tag, err := c.Exec(ctx, `UPDATE runs SET status = 'FAILED', error = $1,
			error_code = 'PROCESS_STOPPED', finished_at = $2 WHERE status = 'RUNNING'`,
			reason, orNow(time.Time{}))
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("recovering runs: %w", err)
	}
	return int(n), nil
}
