-- In-app notices for a workspace's owners: failed runs of workflows that
-- ask for it, approvals waiting. A notice with a key is stored once per
-- workspace (a failure's key names its workflow and hour).
CREATE TABLE notifications (
	id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id bigint NOT NULL REFERENCES workspaces (id),
	workflow_id  bigint,
	session_id   bigint,
	run_id       bigint,
	created_at   timestamptz NOT NULL,
	read_at      timestamptz,
	kind         text NOT NULL,
	dedupe_key   text,
	text         text NOT NULL
);
CREATE UNIQUE INDEX notifications_key ON notifications (workspace_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX notifications_page ON notifications (workspace_id, id);
