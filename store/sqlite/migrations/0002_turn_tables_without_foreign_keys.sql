-- The tables every turn writes (runs, messages, waits) lose their foreign
-- keys. Each of them cost a parent lookup on every insert, and none guards
-- anything the inserts do not already check: a run is inserted only when
-- its session, workflow and resumed run are the workspace's own, a turn's
-- messages and wait take their session from that run, a message outside a
-- run only when its session (and run) are, and rows are never deleted.
-- Measured on a turn's writes (StartTurn and EndTurn), the lookups were
-- about 7% of their time.
--
-- SQLite cannot drop a constraint, so each table is rebuilt: the children
-- first, so that dropping a parent finds nothing that refers to it.

CREATE TABLE waits_new (
	id           INTEGER PRIMARY KEY,
	workspace_id INTEGER NOT NULL,
	session_id   INTEGER NOT NULL,
	run_id       INTEGER NOT NULL,
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
INSERT INTO waits_new SELECT id, workspace_id, session_id, run_id, node_id, save_as, match_mode,
	options, identity, status, expires_at, created_at, snapshot FROM waits;
DROP TABLE waits;
ALTER TABLE waits_new RENAME TO waits;
-- One OPEN wait per session, enforced here so two racing turns cannot both
-- open one; also OpenWait's lookup, and PendingWaits' scan of a workspace.
-- Closed waits leave the index.
CREATE UNIQUE INDEX waits_open_session ON waits (session_id) WHERE status = 'OPEN';

CREATE TABLE messages_new (
	id            INTEGER PRIMARY KEY,
	workspace_id  INTEGER NOT NULL,
	session_id    INTEGER NOT NULL,
	role          TEXT NOT NULL,
	text          TEXT NOT NULL,
	mood          TEXT NOT NULL,
	run_id        INTEGER,
	turn_complete INTEGER NOT NULL,
	created_at    INTEGER NOT NULL
) STRICT;
INSERT INTO messages_new SELECT id, workspace_id, session_id, role, text, mood, run_id,
	turn_complete, created_at FROM messages;
DROP TABLE messages;
ALTER TABLE messages_new RENAME TO messages;
-- Messages.
CREATE INDEX messages_session ON messages (session_id);

CREATE TABLE runs_new (
	id                  INTEGER PRIMARY KEY,
	workspace_id        INTEGER NOT NULL,
	session_id          INTEGER NOT NULL,
	workflow_id         INTEGER,
	version             INTEGER NOT NULL,
	status              TEXT NOT NULL,
	resumed_from_run_id INTEGER,
	node_trace          TEXT,
	error               TEXT NOT NULL,
	error_code          TEXT NOT NULL,
	started_at          INTEGER NOT NULL,
	finished_at         INTEGER
) STRICT;
INSERT INTO runs_new SELECT id, workspace_id, session_id, workflow_id, version, status,
	resumed_from_run_id, node_trace, error, error_code, started_at, finished_at FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
-- RunsBySession.
CREATE INDEX runs_session ON runs (session_id);
