-- Each workspace's language model providers and settings, one JSON
-- document (provider API keys sealed by the caller), replaced whole under
-- its version: read rarely (the server caches it), written by an owner.
CREATE TABLE model_configs (
	workspace_id BIGINT PRIMARY KEY REFERENCES workspaces (id),
	version      BIGINT NOT NULL,
	config       JSONB NOT NULL,
	updated_at   TIMESTAMPTZ NOT NULL
);

-- What each workspace's model calls used per day (UTC), for its daily
-- token and spend budgets; written only by workspaces that have one.
CREATE TABLE model_usage (
	workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
	day          TEXT NOT NULL,
	tokens       BIGINT NOT NULL,
	cost         DOUBLE PRECISION NOT NULL,
	PRIMARY KEY (workspace_id, day)
);
