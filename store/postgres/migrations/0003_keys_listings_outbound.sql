-- API keys, custom actions, MCP connectors, the outbound queue, the live
-- event log, and the indexes the API's listings need. Listings page by id
-- (keyset), so each index ends with id and a page is one index range.

CREATE TABLE api_keys (
	id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id bigint NOT NULL REFERENCES workspaces (id),
	created_at   timestamptz NOT NULL,
	revoked_at   timestamptz,
	last_used_at timestamptz,
	name         text NOT NULL,
	role         text NOT NULL CHECK (role IN ('OWNER', 'MEMBER')),
	prefix       text NOT NULL,
	hash         text NOT NULL
);
-- APIKeyByHash, authentication's lookup; a hash names one key.
CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
CREATE INDEX api_keys_workspace ON api_keys (workspace_id, id);

CREATE INDEX workflows_workspace ON workflows (workspace_id, id);
CREATE INDEX agents_workspace ON agents (workspace_id, id);
-- Sessions: written when a conversation starts, never by its turns.
CREATE INDEX sessions_workspace ON sessions (workspace_id, id);
-- Runs of a whole workspace: a server holds many tenants, so walking the
-- runs table back from its newest row could pass many other tenants'
-- runs. StartTurn pays one more index insert for it.
CREATE INDEX runs_workspace ON runs (workspace_id, id);

-- Ids are the workspace's own (the workspace file declares them).
CREATE TABLE custom_actions (
	workspace_id bigint NOT NULL REFERENCES workspaces (id),
	id           bigint NOT NULL CHECK (id > 0),
	created_at   timestamptz NOT NULL,
	updated_at   timestamptz NOT NULL,
	timeout_ms   integer NOT NULL,
	name         text NOT NULL,
	method       text NOT NULL,
	url          text NOT NULL,
	headers      text,
	PRIMARY KEY (workspace_id, id),
	UNIQUE (workspace_id, name)
);

CREATE TABLE mcp_connectors (
	workspace_id bigint NOT NULL REFERENCES workspaces (id),
	id           bigint NOT NULL CHECK (id > 0),
	created_at   timestamptz NOT NULL,
	updated_at   timestamptz NOT NULL,
	name         text NOT NULL,
	transport    text NOT NULL CHECK (transport IN ('stdio', 'http')),
	command      text,
	url          text NOT NULL,
	credentials  text,
	tools        text,
	PRIMARY KEY (workspace_id, id),
	UNIQUE (workspace_id, name)
);

-- The durable queue of async webhook calls. No foreign keys: the insert
-- checks the workspace and the run, and a key would lock the run's row
-- while its turn is still writing it.
CREATE TABLE outbound (
	id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id    bigint NOT NULL,
	run_id          bigint,
	next_attempt_at timestamptz NOT NULL,
	lease_until     timestamptz,
	created_at      timestamptz NOT NULL,
	finished_at     timestamptz,
	attempts        integer NOT NULL,
	http_status     integer NOT NULL,
	node_id         text NOT NULL,
	method          text NOT NULL,
	url             text NOT NULL,
	headers         text,
	body            bytea,
	status          text NOT NULL CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
	error_class     text NOT NULL
);
-- ClaimOutbound: only requests still to send are in it.
CREATE INDEX outbound_due ON outbound (next_attempt_at, id) WHERE status = 'PENDING';
CREATE INDEX outbound_run ON outbound (run_id);

-- The live event log. A session's events are numbered by its counter,
-- event_seq, moved by the append's own statement: the update locks the
-- session row, so concurrent appends to one session take turns, and
-- numbers do not restart when old events are pruned. The primary key is
-- the backstop against two batches numbered alike.
ALTER TABLE sessions ADD COLUMN event_seq bigint NOT NULL DEFAULT 0;
-- A row per AppendEvents call (typically a turn's ten events), so one
-- heap tuple and two index entries per batch, not per event: its events
-- are first_seq..last_seq, the i-th element (from 1) of types, payloads
-- and created_ats being event first_seq+i-1's; created_at is its newest
-- event's time. toast_tuple_target keeps a batch of up to 8 kB in its row
-- as it is: past the default 2 kB (a turn's events come close), it would
-- be compressed, or moved to the TOAST table, a row and an index entry
-- more per append.
CREATE TABLE event_batches (
	session_id   bigint NOT NULL,
	last_seq     bigint NOT NULL,
	first_seq    bigint NOT NULL,
	workspace_id bigint NOT NULL,
	created_at   timestamptz NOT NULL,
	types        text[] NOT NULL,
	payloads     text[] NOT NULL,
	created_ats  timestamptz[] NOT NULL,
	-- EventsAfter starts at the first batch ending after the seq it is given.
	PRIMARY KEY (session_id, last_seq)
) WITH (toast_tuple_target = 8160);
-- PruneEvents.
CREATE INDEX event_batches_created ON event_batches (created_at);
