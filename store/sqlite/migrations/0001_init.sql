-- Wetel's tables. Ids are rowid aliases (INTEGER PRIMARY KEY): assigned by
-- SQLite, increasing because rows are never deleted, and free to store.
-- Times are INTEGER Unix milliseconds, UTC (6 bytes, against 20+ as text).
-- JSON documents are TEXT, stored exactly as given; NULL when absent.
--
-- Every index costs a page write in the turns that touch it, and a turn's
-- commit time is mostly page writes, so only lookups a turn or a listing
-- needs are indexed. This file is one host's store: a workspace-wide scan
-- of the (few) open waits is cheaper than an index kept up on every turn.

CREATE TABLE workspaces (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL,
	created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE workflows (
	id                INTEGER PRIMARY KEY,
	workspace_id      INTEGER NOT NULL REFERENCES workspaces (id),
	name              TEXT NOT NULL,
	description       TEXT NOT NULL,
	draft             TEXT,
	published_version INTEGER NOT NULL DEFAULT 0,
	failure_response  TEXT NOT NULL,
	notify_on_failure TEXT NOT NULL,
	created_at        INTEGER NOT NULL,
	updated_at        INTEGER NOT NULL
) STRICT;

CREATE TABLE workflow_versions (
	workflow_id  INTEGER NOT NULL REFERENCES workflows (id),
	number       INTEGER NOT NULL,
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	graph        TEXT NOT NULL,
	published_at INTEGER NOT NULL,
	published_by TEXT NOT NULL,
	PRIMARY KEY (workflow_id, number)
) STRICT;

CREATE TABLE agents (
	id            INTEGER PRIMARY KEY,
	workspace_id  INTEGER NOT NULL REFERENCES workspaces (id),
	name          TEXT NOT NULL,
	persona       TEXT NOT NULL,
	default_model TEXT NOT NULL,
	workflow_id   INTEGER REFERENCES workflows (id),
	created_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
	id                 INTEGER PRIMARY KEY,
	workspace_id       INTEGER NOT NULL REFERENCES workspaces (id),
	agent_id           INTEGER NOT NULL REFERENCES agents (id),
	identity           TEXT NOT NULL,
	status             TEXT NOT NULL,
	client_external_id TEXT NOT NULL,
	channel            TEXT NOT NULL,
	created_at         INTEGER NOT NULL,
	ended_at           INTEGER
) STRICT;

CREATE TABLE runs (
	id                  INTEGER PRIMARY KEY,
	workspace_id        INTEGER NOT NULL REFERENCES workspaces (id),
	session_id          INTEGER NOT NULL REFERENCES sessions (id),
	workflow_id         INTEGER REFERENCES workflows (id),
	version             INTEGER NOT NULL,
	status              TEXT NOT NULL,
	resumed_from_run_id INTEGER REFERENCES runs (id),
	node_trace          TEXT,
	error               TEXT NOT NULL,
	error_code          TEXT NOT NULL,
	started_at          INTEGER NOT NULL,
	finished_at         INTEGER
) STRICT;

-- RunsBySession.
CREATE INDEX runs_session ON runs (session_id);

-- RecoverRuns' mark: every run up to settled_through was settled by the last
-- recovery, so the next scans only newer ones (ids only grow, rows are never
-- deleted, and a run is RUNNING only from its insert) instead of keeping an
-- index on status up to date on every turn.
CREATE TABLE run_recovery (
	id              INTEGER PRIMARY KEY CHECK (id = 1),
	settled_through INTEGER NOT NULL
) STRICT;

CREATE TABLE messages (
	id            INTEGER PRIMARY KEY,
	workspace_id  INTEGER NOT NULL REFERENCES workspaces (id),
	session_id    INTEGER NOT NULL REFERENCES sessions (id),
	role          TEXT NOT NULL,
	text          TEXT NOT NULL,
	mood          TEXT NOT NULL,
	run_id        INTEGER REFERENCES runs (id),
	turn_complete INTEGER NOT NULL,
	created_at    INTEGER NOT NULL
) STRICT;

-- Messages.
CREATE INDEX messages_session ON messages (session_id);

CREATE TABLE waits (
	id           INTEGER PRIMARY KEY,
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	session_id   INTEGER NOT NULL REFERENCES sessions (id),
	run_id       INTEGER NOT NULL REFERENCES runs (id),
	node_id      TEXT NOT NULL,
	save_as      TEXT NOT NULL,
	match_mode   TEXT NOT NULL,
	options      TEXT,
	identity     TEXT NOT NULL,
	status       TEXT NOT NULL,
	expires_at   INTEGER,
	created_at   INTEGER NOT NULL,
	snapshot     TEXT
) STRICT;

-- One OPEN wait per session, enforced here so two racing turns cannot both
-- open one; also OpenWait's lookup, and PendingWaits' scan of a workspace.
-- Closed waits leave the index.
CREATE UNIQUE INDEX waits_open_session ON waits (session_id) WHERE status = 'OPEN';
