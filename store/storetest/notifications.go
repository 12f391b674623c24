package storetest

import (
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// testNotifications: notices are listed newest first, one with a key is
// stored once per workspace, and marking read touches only the caller's
// workspace's unread notices.
func testNotifications(t *testing.T, e *env) {
	s := e.shared
	ctx := t.Context()
	tn, other := newTenant(t, s), newTenant(t, s)
	add := func(ws int64, kind, key, text string) (store.Notification, bool) {
		t.Helper()
		n, ok, err := s.AddNotification(ctx, store.Notification{WorkspaceID: ws, Kind: kind, Key: key, WorkflowID: tn.workflow, Text: text})
		must(t, err)
		return n, ok
	}
	first, ok := add(tn.ws, store.NoticeRunFailed, "failed:1:2026-12-01T09", "a run failed")
	if !ok || first.ID <= 0 {
		t.Fatalf("first notice: %+v, %v", first, ok)
	}
	if _, ok := add(tn.ws, store.NoticeRunFailed, "failed:1:2026-12-01T09", "failed again"); ok {
		t.Error("a second notice with the same key was stored")
	}
	if _, ok := add(other.ws, store.NoticeRunFailed, "failed:1:2026-12-01T09", "theirs"); !ok {
		t.Error("another workspace's notice with the same key was refused")
	}
	second, _ := add(tn.ws, store.NoticeApproval, "", "an approval waits")
	add(tn.ws, store.NoticeApproval, "", "another approval waits")
	got, err := s.Notifications(ctx, tn.ws, false, 10)
	must(t, err)
	if len(got) != 3 || got[0].Text != "another approval waits" || got[2].ID != first.ID || got[2].WorkflowID != tn.workflow || got[2].Key == "" {
		t.Fatalf("notifications = %s", str(got))
	}
	n, err := s.MarkNotificationsRead(ctx, tn.ws, []int64{first.ID, second.ID}, now())
	must(t, err)
	if n != 2 {
		t.Errorf("marked %d read, want 2", n)
	}
	if n, _ := s.MarkNotificationsRead(ctx, other.ws, []int64{got[0].ID}, now()); n != 0 {
		t.Errorf("another workspace marked %d of ours read", n)
	}
	unread, err := s.Notifications(ctx, tn.ws, true, 10)
	must(t, err)
	if len(unread) != 1 || unread[0].Text != "another approval waits" || unread[0].ReadAt != nil {
		t.Errorf("unread = %s", str(unread))
	}
	all, _ := s.Notifications(ctx, tn.ws, false, 10)
	if all[2].ReadAt == nil || time.Since(*all[2].ReadAt) > time.Minute {
		t.Errorf("the read notice: %s", str(all[2]))
	}
	_, _, err = s.AddNotification(ctx, store.Notification{WorkspaceID: tn.ws, Kind: store.NoticeApproval})
	wantErr(t, "a notice with no text", err, store.ErrInvalid)
	_, err = s.Notifications(ctx, tn.ws, false, 0)
	wantErr(t, "a page of 0", err, store.ErrInvalid)
}
