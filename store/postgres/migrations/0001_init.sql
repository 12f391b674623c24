-- Wetel's tables. Ids are identity columns: assigned by the database,
-- increasing. Times are timestamptz (microseconds, UTC). JSON documents are
-- text, stored byte for byte (a published graph must read back exactly, and
-- for documents of this size text is smaller than jsonb); NULL when absent.
-- Columns are ordered wide to narrow so rows carry no alignment padding.
--
-- A foreign key check locks the parent row (FOR KEY SHARE) on every insert.
-- The tables a turn writes (runs, messages, waits) therefore reference only
-- their own conversation's rows (session, run), never the workspace or the
-- workflow that every session shares: those would be locked by every turn
-- of every session at once. Their workspace_id and workflow_id are copied
-- from, or checked against, the session's workspace by the inserts.

CREATE TABLE workspaces (
	id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	created_at timestamptz NOT NULL,
	name       text NOT NULL
);

CREATE TABLE workflows (
	id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id      bigint NOT NULL REFERENCES workspaces (id),
	created_at        timestamptz NOT NULL,
	updated_at        timestamptz NOT NULL,
	published_version integer NOT NULL DEFAULT 0,
	name              text NOT NULL,
	description       text NOT NULL,
	draft             text,
	failure_response  text NOT NULL,
	notify_on_failure text NOT NULL
);

CREATE TABLE workflow_versions (
	workflow_id  bigint NOT NULL REFERENCES workflows (id),
	workspace_id bigint NOT NULL REFERENCES workspaces (id),
	published_at timestamptz NOT NULL,
	number       integer NOT NULL,
	graph        text NOT NULL,
	published_by text NOT NULL,
	PRIMARY KEY (workflow_id, number)
);

CREATE TABLE agents (
	id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id  bigint NOT NULL REFERENCES workspaces (id),
	workflow_id   bigint REFERENCES workflows (id),
	created_at    timestamptz NOT NULL,
	name          text NOT NULL,
	persona       text NOT NULL,
	default_model text NOT NULL
);

CREATE TABLE sessions (
	id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id       bigint NOT NULL REFERENCES workspaces (id),
	agent_id           bigint NOT NULL REFERENCES agents (id),
	created_at         timestamptz NOT NULL,
	ended_at           timestamptz,
	identity           text NOT NULL,
	status             text NOT NULL,
	client_external_id text NOT NULL,
	channel            text NOT NULL
);

CREATE TABLE runs (
	id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id        bigint NOT NULL,
	session_id          bigint NOT NULL REFERENCES sessions (id),
	workflow_id         bigint,
	resumed_from_run_id bigint REFERENCES runs (id),
	started_at          timestamptz NOT NULL,
	finished_at         timestamptz,
	version             integer NOT NULL,
	status              text NOT NULL,
	node_trace          text,
	error               text NOT NULL,
	error_code          text NOT NULL
);

-- RunsBySession.
CREATE INDEX runs_session ON runs (session_id);
-- RecoverRuns: only the few RUNNING runs are in it.
CREATE INDEX runs_running ON runs (id) WHERE status = 'RUNNING';

CREATE TABLE messages (
	id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id  bigint NOT NULL,
	session_id    bigint NOT NULL REFERENCES sessions (id),
	run_id        bigint REFERENCES runs (id),
	created_at    timestamptz NOT NULL,
	turn_complete boolean NOT NULL,
	role          text NOT NULL,
	text          text NOT NULL,
	mood          text NOT NULL
);

-- Messages.
CREATE INDEX messages_session ON messages (session_id);

CREATE TABLE waits (
	id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id bigint NOT NULL,
	session_id   bigint NOT NULL REFERENCES sessions (id),
	run_id       bigint NOT NULL REFERENCES runs (id),
	expires_at   timestamptz,
	created_at   timestamptz NOT NULL,
	node_id      text NOT NULL,
	save_as      text NOT NULL,
	match_mode   text NOT NULL,
	options      text,
	identity     text NOT NULL,
	status       text NOT NULL,
	snapshot     text
);

-- One OPEN wait per session, enforced here so two racing turns cannot both
-- open one; also OpenWait's lookup. Closed waits leave the index.
CREATE UNIQUE INDEX waits_open_session ON waits (session_id) WHERE status = 'OPEN';
-- PendingWaits of a whole workspace: a server holds many tenants.
CREATE INDEX waits_open_workspace ON waits (workspace_id, id) WHERE status = 'OPEN';

-- wetel_expect fails the statement, and with it the transaction, unless a
-- step changed as many rows as it should: EndTurn sends all its statements
-- in one round trip, as one implicit transaction, and a step that changed
-- nothing must not let the others commit. code is the SQLSTATE the driver
-- maps back to its reason.
CREATE FUNCTION wetel_expect(got bigint, want bigint, code text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	IF got <> want THEN
		RAISE EXCEPTION 'wetel: % rows changed, want %', got, want USING ERRCODE = code;
	END IF;
END
$$;
