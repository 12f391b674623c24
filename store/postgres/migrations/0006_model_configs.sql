-- Each workspace's language model providers and settings, one JSON
-- document (provider API keys sealed by the caller), replaced whole under
-- its version: read rarely (the server caches it), written by an owner.
CREATE TABLE model_configs (
	workspace_id BIGINT PRIMARY KEY REFERENCES workspaces (id),
	version      BIGINT NOT NULL,
	config       JSONB NOT NULL,
	updated_at   TIMESTAMPTZ NOT NULL
);
