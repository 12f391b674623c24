-- A sub_agent dispatch runs each target in a child session of its own;
-- parent_session_id names the session whose run dispatched it, NULL for
-- a session a person or a client opened.
ALTER TABLE sessions ADD COLUMN parent_session_id INTEGER;
