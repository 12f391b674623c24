-- Settings the servers of one database must agree on, written once by the
-- first to start: the check value of the key that seals credentials.
CREATE TABLE settings (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT;
