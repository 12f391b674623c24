-- Waits become general: a kind (the node type that paused: await_reply,
-- approval, end_session) with the kind's own JSON state, and what resumes
-- it (the session's next message, or a decision). Today's waits are all
-- await_reply questions: their save_as, match_mode and options move into
-- the state await_reply reads, {"saveAs":…,"matchMode":…,"options":[…]}.
--
-- The database keeps the rules per kind: one OPEN wait resumed by a reply
-- per session (seed 000: "One open question per session ... enforced at
-- the database level"), and one outcome per wait, so an approval is decided
-- once (a trigger refuses to change the status of a closed wait).

CREATE TABLE waits_new (
	id           INTEGER PRIMARY KEY,
	workspace_id INTEGER NOT NULL,
	session_id   INTEGER NOT NULL,
	run_id       INTEGER NOT NULL,
	node_id      TEXT NOT NULL,
	kind         TEXT NOT NULL,
	resume_on    TEXT NOT NULL CHECK (resume_on IN ('reply', 'decision')),
	state        TEXT,
	identity     TEXT NOT NULL,
	status       TEXT NOT NULL,
	expires_at   INTEGER,
	created_at   INTEGER NOT NULL,
	snapshot     TEXT
) STRICT;
INSERT INTO waits_new SELECT id, workspace_id, session_id, run_id, node_id, 'await_reply', 'reply',
	CASE WHEN options IS NULL THEN json_object('saveAs', save_as, 'matchMode', match_mode)
	ELSE json_object('saveAs', save_as, 'matchMode', match_mode, 'options', json(options)) END,
	identity, status, expires_at, created_at, snapshot FROM waits;
DROP TABLE waits;
ALTER TABLE waits_new RENAME TO waits;

-- The one open question per session; also the turn's lookup of it.
CREATE UNIQUE INDEX waits_open_session ON waits (session_id) WHERE status = 'OPEN' AND resume_on = 'reply';
-- Pending waits of one kind in a workspace, and the count of open waits.
CREATE INDEX waits_open_kind ON waits (workspace_id, kind, id) WHERE status = 'OPEN';

CREATE TRIGGER waits_one_outcome BEFORE UPDATE OF status ON waits
WHEN OLD.status <> 'OPEN'
BEGIN
	SELECT RAISE(ABORT, 'wetel: a closed wait keeps its outcome');
END;
