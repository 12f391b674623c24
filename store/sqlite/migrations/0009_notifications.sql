-- In-app notices for a workspace's owners: failed runs of workflows that
-- ask for it, approvals waiting. A notice with a key is stored once per
-- workspace (a failure's key names its workflow and hour).
CREATE TABLE notifications (
	id           INTEGER PRIMARY KEY,
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	kind         TEXT NOT NULL,
	dedupe_key   TEXT,
	workflow_id  INTEGER,
	session_id   INTEGER,
	run_id       INTEGER,
	text         TEXT NOT NULL,
	created_at   INTEGER NOT NULL,
	read_at      INTEGER
) STRICT;
CREATE UNIQUE INDEX notifications_key ON notifications (workspace_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX notifications_page ON notifications (workspace_id, id);
