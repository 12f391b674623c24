-- API keys, custom actions, MCP connectors, the outbound queue, the live
-- event log, and the indexes the API's listings need.
--
-- None of these tables is written by a turn's own store calls (StartTurn,
-- EndTurn), so their indexes cost the turn nothing. The turn tables get
-- no new index: a workspace's runs are listed by walking the runs table
-- from its newest rowid back (see qRunsWS), which on one host's file, where
-- one workspace or a few make most of the rows, stops after a page or two.

CREATE TABLE api_keys (
	id           INTEGER PRIMARY KEY,
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	name         TEXT NOT NULL,
	role         TEXT NOT NULL CHECK (role IN ('OWNER', 'MEMBER')),
	prefix       TEXT NOT NULL,
	hash         TEXT NOT NULL,
	created_at   INTEGER NOT NULL,
	revoked_at   INTEGER,
	last_used_at INTEGER
) STRICT;
-- APIKeyByHash, authentication's lookup; a hash names one key.
CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
-- APIKeys.
CREATE INDEX api_keys_workspace ON api_keys (workspace_id);

-- Workflows and Agents (rowid order within the workspace).
CREATE INDEX workflows_workspace ON workflows (workspace_id);
CREATE INDEX agents_workspace ON agents (workspace_id);
-- Sessions: one entry per conversation, written when it starts, never by
-- its turns.
CREATE INDEX sessions_workspace ON sessions (workspace_id);

-- Ids are the workspace's own (the workspace file declares them), so the
-- key is (workspace_id, id) and the table is clustered on it.
CREATE TABLE custom_actions (
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	id           INTEGER NOT NULL CHECK (id > 0),
	name         TEXT NOT NULL,
	method       TEXT NOT NULL,
	url          TEXT NOT NULL,
	headers      TEXT,
	timeout_ms   INTEGER NOT NULL,
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL,
	PRIMARY KEY (workspace_id, id)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX custom_actions_name ON custom_actions (workspace_id, name);

CREATE TABLE mcp_connectors (
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	id           INTEGER NOT NULL CHECK (id > 0),
	name         TEXT NOT NULL,
	transport    TEXT NOT NULL CHECK (transport IN ('stdio', 'http')),
	command      TEXT,
	url          TEXT NOT NULL,
	credentials  TEXT,
	tools        TEXT,
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL,
	PRIMARY KEY (workspace_id, id)
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX mcp_connectors_name ON mcp_connectors (workspace_id, name);

-- The durable queue of async webhook calls. A request is PENDING until
-- sent or given up; while a worker holds it, lease_until is set.
CREATE TABLE outbound (
	id              INTEGER PRIMARY KEY,
	workspace_id    INTEGER NOT NULL,
	run_id          INTEGER,
	node_id         TEXT NOT NULL,
	method          TEXT NOT NULL,
	url             TEXT NOT NULL,
	headers         TEXT,
	body            BLOB,
	status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
	attempts        INTEGER NOT NULL,
	next_attempt_at INTEGER NOT NULL,
	lease_until     INTEGER,
	error_class     TEXT NOT NULL,
	http_status     INTEGER NOT NULL,
	created_at      INTEGER NOT NULL,
	finished_at     INTEGER
) STRICT;
-- ClaimOutbound: only requests still to send are in it.
CREATE INDEX outbound_due ON outbound (next_attempt_at) WHERE status = 'PENDING';
-- OutboundByRun.
CREATE INDEX outbound_run ON outbound (run_id);

-- The live event log. A session's events are numbered by its counter,
-- event_seq, moved in the same transaction as the insert, so numbers are
-- never shared or skipped and do not restart when old events are pruned.
ALTER TABLE sessions ADD COLUMN event_seq INTEGER NOT NULL DEFAULT 0;
-- A row per AppendEvents call (typically a turn's ten events): its events
-- are first_seq..last_seq, encoded in events as a JSON array (events.go),
-- and created_at is its newest event's time. A rowid table, so that a
-- batch, a kilobyte or two, is appended to the table's last page, and
-- stays on it: in a WITHOUT ROWID table it would spill to an overflow
-- page, which every key comparison in its leaf then reads.
CREATE TABLE event_batches (
	id           INTEGER PRIMARY KEY,
	session_id   INTEGER NOT NULL,
	last_seq     INTEGER NOT NULL,
	first_seq    INTEGER NOT NULL,
	workspace_id INTEGER NOT NULL,
	created_at   INTEGER NOT NULL,
	events       TEXT NOT NULL
) STRICT;
-- EventsAfter seeks to the first batch ending after the seq it is given.
CREATE UNIQUE INDEX event_batches_session ON event_batches (session_id, last_seq);
-- PruneEvents.
CREATE INDEX event_batches_created ON event_batches (created_at);
