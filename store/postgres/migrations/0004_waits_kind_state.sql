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

ALTER TABLE waits ADD COLUMN kind text, ADD COLUMN resume_on text, ADD COLUMN state text;
UPDATE waits SET kind = 'await_reply', resume_on = 'reply', state = CASE
	WHEN options IS NULL THEN json_build_object('saveAs', save_as, 'matchMode', match_mode)::text
	ELSE json_build_object('saveAs', save_as, 'matchMode', match_mode, 'options', options::json)::text END;
ALTER TABLE waits
	ALTER COLUMN kind SET NOT NULL,
	ALTER COLUMN resume_on SET NOT NULL,
	ADD CONSTRAINT waits_resume_on CHECK (resume_on IN ('reply', 'decision')),
	DROP COLUMN save_as,
	DROP COLUMN match_mode,
	DROP COLUMN options;

DROP INDEX waits_open_session;
DROP INDEX waits_open_workspace;
-- The one open question per session; also the turn's lookup of it.
CREATE UNIQUE INDEX waits_open_session ON waits (session_id) WHERE status = 'OPEN' AND resume_on = 'reply';
-- Pending waits of one kind in a workspace.
CREATE INDEX waits_open_kind ON waits (workspace_id, kind, id) WHERE status = 'OPEN';

CREATE FUNCTION wetel_wait_one_outcome() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'wetel: wait % already has its outcome %', OLD.id, OLD.status USING ERRCODE = '23514';
END
$$;
CREATE TRIGGER waits_one_outcome BEFORE UPDATE OF status ON waits
	FOR EACH ROW WHEN (OLD.status <> 'OPEN') EXECUTE FUNCTION wetel_wait_one_outcome();
