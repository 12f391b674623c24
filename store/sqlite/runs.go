package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
)

// scanRun reads runCols.
func scanRun(v []driver.Value) store.Run {
	return store.Run{ID: i64(v[0]), WorkspaceID: i64(v[1]), SessionID: i64(v[2]),
		WorkflowID: i64(v[3]), Version: int(i64(v[4])), Status: text(v[5]),
		ResumedFromRunID: i64(v[6]), NodeTrace: doc(v[7]), Error: text(v[8]),
		ErrorCode: text(v[9]), StartedAt: msTime(v[10]), FinishedAt: msTimePtr(v[11])}
}

// Run reads a run of ws.
func (s *Store) Run(ctx context.Context, ws, id int64) (store.Run, error) {
	var r store.Run
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(qRun, id, ws)
		if err == nil {
			r = scanRun(v)
		}
		return err
	})
	if err != nil {
		return store.Run{}, fmt.Errorf("reading run %d: %w", id, mapErr(err))
	}
	return r, nil
}

// RunsBySession lists a session's runs in id order; ErrNotFound when the
// session is not ws's.
func (s *Store) RunsBySession(ctx context.Context, ws, sessionID int64) ([]store.Run, error) {
	out, err := listOfSession(ctx, s, qRunsBySession, ws, sessionID, scanRun)
	if err != nil {
		return nil, fmt.Errorf("listing runs of session %d: %w", sessionID, err)
	}
	return out, nil
}

// RecoverRuns fails every RUNNING run of every workspace with reason. It
// looks only at runs newer than the last recovery's mark, then moves the
// mark to the newest run: none up to it is RUNNING any more.
func (s *Store) RecoverRuns(ctx context.Context, reason string) (int, error) {
	var n int64
	err := s.write(ctx, func(c *conn) error {
		var settled int64
		v, err := c.row(qSettledThrough)
		switch {
		case err == nil:
			settled = i64(v[0])
		case !errors.Is(err, errNoRow):
			return err
		}
		if n, err = c.exec(qRecoverRuns, reason, msOrNow(time.Time{}), settled); err != nil {
			return err
		}
		_, err = c.exec(qMarkSettled)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("recovering runs: %w", err)
	}
	return int(n), nil
}
