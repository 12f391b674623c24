-- Each workspace's language model providers and settings, one JSON
-- document (provider API keys sealed by the caller), replaced whole under
-- its version: read rarely (the server caches it), written by an owner.
CREATE TABLE model_configs (
	workspace_id INTEGER PRIMARY KEY REFERENCES workspaces (id),
	version      INTEGER NOT NULL,
	config       TEXT NOT NULL,
	updated_at   INTEGER NOT NULL
) STRICT;

-- What each workspace's model calls used per day (UTC), for its daily
-- token and spend budgets; written only by workspaces that have one.
CREATE TABLE model_usage (
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	day          TEXT NOT NULL,
	tokens       INTEGER NOT NULL,
	cost         REAL NOT NULL,
	PRIMARY KEY (workspace_id, day)
) STRICT, WITHOUT ROWID;
