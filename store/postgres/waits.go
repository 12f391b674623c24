package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
)

const waitCols = `id, workspace_id, session_id, run_id, node_id, kind, resume_on,
	state, identity, status, expires_at, created_at`

// waitScan holds the destinations of waitCols.
type waitScan struct {
	w       store.Wait
	state   []byte
	expires *time.Time
}

func (x *waitScan) dest() []any {
	w := &x.w
	return []any{&w.ID, &w.WorkspaceID, &w.SessionID, &w.RunID, &w.NodeID, &w.Kind,
		&w.ResumeOn, &x.state, &w.Identity, &w.Status, &x.expires, &w.CreatedAt}
}

func (x *waitScan) wait() store.Wait {
	w := x.w
	w.State, w.CreatedAt = rawJSON(x.state), w.CreatedAt.UTC()
	if x.expires != nil {
		w.ExpiresAt = x.expires.UTC()
	}
	return w
}

// OpenWait returns the session's OPEN wait resumed by a reply, and its snapshot. One found past
// its expiry is closed as EXPIRED and reads as ErrNotFound.
func (s *Store) OpenWait(ctx context.Context, ws, sessionID int64, now time.Time) (store.Wait, json.RawMessage, error) {
	var w store.Wait
	var snap []byte
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var x waitScan
		err := c.QueryRow(ctx, `SELECT `+waitCols+`, snapshot FROM waits
			WHERE session_id = $1 AND workspace_id = $2 AND status = 'OPEN' AND resume_on = 'reply'`, sessionID, ws).
			Scan(append(x.dest(), &snap)...)
		if err != nil {
			return mapErr(err)
		}
		if w = x.wait(); w.ExpiresAt.IsZero() || now.Before(w.ExpiresAt) {
			return nil
		}
		if _, err := c.Exec(ctx, `UPDATE waits SET status = 'EXPIRED'
			WHERE id = $1 AND status = 'OPEN' AND expires_at <= $2`, w.ID, now); err != nil {
			return fmt.Errorf("expiring wait %d: %w", w.ID, err)
		}
		return fmt.Errorf("wait %d expired: %w", w.ID, store.ErrNotFound)
	})
	if err != nil {
		return store.Wait{}, nil, fmt.Errorf("reading open wait of session %d: %w", sessionID, err)
	}
	return w, rawJSON(snap), nil
}

// WaitByID reads a wait of ws with its snapshot.
func (s *Store) WaitByID(ctx context.Context, ws, id int64) (store.Wait, json.RawMessage, error) {
	var x waitScan
	var snap []byte
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return mapErr(c.QueryRow(ctx, `SELECT `+waitCols+`, snapshot FROM waits WHERE id = $1 AND workspace_id = $2`, id, ws).
			Scan(append(x.dest(), &snap)...))
	})
	if err != nil {
		return store.Wait{}, nil, fmt.Errorf("reading wait %d: %w", id, err)
	}
	return x.wait(), rawJSON(snap), nil
}

// PendingWaits lists OPEN, unexpired waits of a kind in id order, without snapshots.
func (s *Store) PendingWaits(ctx context.Context, ws, sessionID int64, kind string, now time.Time) ([]store.Wait, error) {
	var out []store.Wait
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var rows pgx.Rows
		var err error
		if sessionID == 0 {
			rows, err = c.Query(ctx, `SELECT `+waitCols+` FROM waits
				WHERE workspace_id = $1 AND kind = $2 AND status = 'OPEN' AND (expires_at IS NULL OR expires_at > $3)
				ORDER BY id`, ws, kind, now)
		} else {
			rows, err = c.Query(ctx, `SELECT `+waitCols+` FROM waits
				WHERE session_id = $1 AND workspace_id = $2 AND kind = $3 AND status = 'OPEN'
				AND (expires_at IS NULL OR expires_at > $4) ORDER BY id`, sessionID, ws, kind, now)
		}
		if err != nil {
			return err
		}
		var x waitScan
		_, err = pgx.ForEachRow(rows, x.dest(), func() error {
			out = append(out, x.wait())
			x = waitScan{}
			return nil
		})
		if err == nil && len(out) == 0 && sessionID != 0 {
			err = sessionIn(ctx, c, ws, sessionID)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing pending waits: %w", err)
	}
	return out, nil
}

// CountOpenWaits counts every workspace's OPEN, unexpired waits.
func (s *Store) CountOpenWaits(ctx context.Context, now time.Time) (int, error) {
	n, err := readOne(ctx, s, func(r scanner) (int64, error) {
		var n int64
		return n, r.Scan(&n)
	}, `SELECT count(*) FROM waits WHERE status = 'OPEN' AND (expires_at IS NULL OR expires_at > $1)`, now)
	if err != nil {
		return 0, fmt.Errorf("counting open waits: %w", err)
	}
	return int(n), nil
}
