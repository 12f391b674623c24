package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

const notificationCols = `id, workspace_id, kind, coalesce(dedupe_key, ''), coalesce(workflow_id, 0),
	coalesce(session_id, 0), coalesce(run_id, 0), text, created_at, read_at`

func scanNotification(r scanner) (store.Notification, error) {
	var n store.Notification
	err := r.Scan(&n.ID, &n.WorkspaceID, &n.Kind, &n.Key, &n.WorkflowID, &n.SessionID, &n.RunID, &n.Text, &n.CreatedAt, &n.ReadAt)
	n.CreatedAt, n.ReadAt = n.CreatedAt.UTC(), utcPtr(n.ReadAt)
	return n, err
}

func nullKey(k string) any {
	if k == "" {
		return nil
	}
	return k
}

// AddNotification stores n unless its key is stored already.
func (s *Store) AddNotification(ctx context.Context, n store.Notification) (store.Notification, bool, error) {
	if err := check.Notification(&n); err != nil {
		return store.Notification{}, false, fmt.Errorf("adding a notification: %w", err)
	}
	n.CreatedAt, n.ReadAt = orNow(n.CreatedAt), nil
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO notifications (workspace_id, kind, dedupe_key, workflow_id, session_id, run_id, text, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
			n.WorkspaceID, n.Kind, nullKey(n.Key), nullID(n.WorkflowID), nullID(n.SessionID), nullID(n.RunID), n.Text, n.CreatedAt).Scan(&n.ID)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Notification{}, false, nil // the key was stored already
	}
	if err != nil {
		return store.Notification{}, false, fmt.Errorf("adding a notification to workspace %d: %w", n.WorkspaceID, mapErr(err))
	}
	return n, true, nil
}

// Notifications lists the workspace's notices newest first.
func (s *Store) Notifications(ctx context.Context, ws int64, unreadOnly bool, limit int) ([]store.Notification, error) {
	if err := check.NotificationPage(limit); err != nil {
		return nil, fmt.Errorf("listing notifications: %w", err)
	}
	out, err := list(ctx, s, scanNotification, `SELECT `+notificationCols+` FROM notifications
		WHERE workspace_id = $1 AND (NOT $2 OR read_at IS NULL) ORDER BY id DESC LIMIT $3`, ws, unreadOnly, limit)
	if err != nil {
		return nil, fmt.Errorf("listing notifications: %w", err)
	}
	return out, nil
}

// MarkNotificationsRead marks the workspace's notices read.
func (s *Store) MarkNotificationsRead(ctx context.Context, ws int64, ids []int64, at time.Time) (int, error) {
	if ids == nil {
		ids = []int64{}
	}
	var n int64
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		tag, err := c.Exec(ctx, `UPDATE notifications SET read_at = $1
			WHERE workspace_id = $2 AND read_at IS NULL AND id = ANY ($3::bigint[])`, at, ws, ids)
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("marking notifications read: %w", err)
	}
	return int(n), nil
}
