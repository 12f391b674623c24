package store

import (
	"context"
	"time"
)

// Notification kinds.
const (
	// NoticeRunFailed: a run of a workflow whose notifyOnFailure is OWNERS
	// failed (seed 001: "at most one per workflow per hour").
	NoticeRunFailed = "RUN_FAILED"
	// NoticeApproval: a run waits for an owner's decision.
	NoticeApproval = "APPROVAL"
)

// MaxNotificationPage bounds one page of Notifications.
const MaxNotificationPage = 200

// Notification is an in-app notice for the workspace's owners.
type Notification struct {
	ID          int64
	WorkspaceID int64
	Kind        string
	// Key, when set, makes the notice once-only in its workspace: one
	// with a key already stored is not stored again. A failure notice's
	// key names its workflow and hour, so the database keeps "at most one
	// per workflow per hour" however many runs fail at once.
	Key        string
	WorkflowID int64
	SessionID  int64
	RunID      int64
	Text       string
	CreatedAt  time.Time
	ReadAt     *time.Time
}

// NotificationStore keeps the workspace's in-app notices.
type NotificationStore interface {
	// AddNotification stores n and reports whether it was stored: false,
	// with no error, when a notice with its Key exists. ErrInvalid for an
	// empty kind or text; ErrNotFound for an unknown workspace.
	AddNotification(ctx context.Context, n Notification) (Notification, bool, error)
	// Notifications lists the workspace's notices newest first, at most
	// limit (1 to MaxNotificationPage), only the unread ones when asked.
	Notifications(ctx context.Context, ws int64, unreadOnly bool, limit int) ([]Notification, error)
	// MarkNotificationsRead marks the workspace's notices with these ids
	// read at at, and returns how many were unread. Ids of another
	// workspace change nothing.
	MarkNotificationsRead(ctx context.Context, ws int64, ids []int64, at time.Time) (int, error)
}
