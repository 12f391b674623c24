-- Artifacts: the documents and images nodes make (pdf_export,
-- generate_artifact), kept whole, read back by id within their workspace.

CREATE TABLE artifacts (
	id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	workspace_id bigint NOT NULL REFERENCES workspaces (id),
	kind         text NOT NULL CHECK (kind IN ('markdown', 'html', 'image', 'pdf')),
	name         text NOT NULL,
	content_type text NOT NULL,
	size         bigint NOT NULL,
	data         bytea NOT NULL,
	created_at   timestamptz NOT NULL
);
