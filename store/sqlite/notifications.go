package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

const notificationCols = `id, workspace_id, kind, dedupe_key, workflow_id, session_id, run_id, text, created_at, read_at`

// A notice whose key is stored already is not inserted: no row comes back.
const insNotificationSQL = `INSERT INTO notifications (workspace_id, kind, dedupe_key, workflow_id, session_id, run_id, text, created_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`

func scanNotification(v []driver.Value) (store.Notification, error) {
	return store.Notification{ID: i64(v[0]), WorkspaceID: i64(v[1]), Kind: text(v[2]), Key: text(v[3]),
		WorkflowID: i64(v[4]), SessionID: i64(v[5]), RunID: i64(v[6]), Text: text(v[7]),
		CreatedAt: msTime(v[8]), ReadAt: msTimePtr(v[9])}, nil
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
	n.CreatedAt, n.ReadAt = fromMs(msOrNow(n.CreatedAt)), nil
	err := s.write(ctx, func(c *conn) error {
		var err error
		n.ID, err = c.insert(qInsNotification, n.WorkspaceID, n.Kind, nullKey(n.Key), nullID(n.WorkflowID),
			nullID(n.SessionID), nullID(n.RunID), n.Text, ms(n.CreatedAt))
		return err
	})
	if errors.Is(err, errNoRow) {
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
	var out []store.Notification
	err := s.read(ctx, func(c *conn) error {
		var err error
		out, err = collect(c, scanNotification, qNotifications, ws, unreadOnly, limit)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing notifications: %w", err)
	}
	return out, nil
}

// MarkNotificationsRead marks the workspace's notices read.
func (s *Store) MarkNotificationsRead(ctx context.Context, ws int64, ids []int64, at time.Time) (int, error) {
	var n int64
	err := s.write(ctx, func(c *conn) error {
		var err error
		n, err = c.exec(qMarkRead, ms(at), ws, idList(ids))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("marking notifications read: %w", err)
	}
	return int(n), nil
}
