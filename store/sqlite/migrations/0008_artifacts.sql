-- Artifacts: the documents and images nodes make (pdf_export,
-- generate_artifact), kept whole, read back by id within their workspace.
-- Nothing a turn writes touches this table's index.

CREATE TABLE artifacts (
	id           INTEGER PRIMARY KEY,
	workspace_id INTEGER NOT NULL REFERENCES workspaces (id),
	kind         TEXT NOT NULL CHECK (kind IN ('markdown', 'html', 'image', 'pdf')),
	name         TEXT NOT NULL,
	content_type TEXT NOT NULL,
	size         INTEGER NOT NULL,
	data         BLOB NOT NULL,
	created_at   INTEGER NOT NULL
) STRICT;
