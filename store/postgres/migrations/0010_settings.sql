-- Settings the servers of one database must agree on, written once by the
-- first to start: the check value of the key that seals credentials.
CREATE TABLE settings (
	name  text PRIMARY KEY,
	value text NOT NULL
);
