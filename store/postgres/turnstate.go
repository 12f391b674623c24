package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// turnStateSQL reads everything TurnState returns in one statement, so in
// one round trip and from one snapshot: the session of the workspace, its
// agent, the agent's workflow (NULLs when it has none; never the draft),
// the open wait with its snapshot (NULLs when none), and the transcript as
// one array per column in id order (NULL when empty).
const turnStateSQL = `SELECT s.id, s.workspace_id, s.agent_id, s.identity, s.status,
		s.client_external_id, s.channel, s.created_at, s.ended_at,
		a.id, a.workspace_id, a.name, a.persona, a.default_model, coalesce(a.workflow_id, 0), a.created_at,
		f.id, f.workspace_id, f.name, f.description, f.published_version,
		f.failure_response, f.notify_on_failure, f.created_at, f.updated_at,
		w.id, w.run_id, w.node_id, w.kind, w.resume_on, w.state, w.identity,
		w.expires_at, w.created_at, w.snapshot,
		m.ids, m.roles, m.texts, m.moods, m.runs, m.done, m.ats, coalesce(s.parent_session_id, 0)
	FROM sessions s
	JOIN agents a ON a.id = s.agent_id
	LEFT JOIN workflows f ON f.id = a.workflow_id
	LEFT JOIN waits w ON w.session_id = s.id AND w.status = 'OPEN' AND w.resume_on = 'reply'
	CROSS JOIN LATERAL (
		SELECT array_agg(id ORDER BY id) AS ids, array_agg(role ORDER BY id) AS roles,
			array_agg(text ORDER BY id) AS texts, array_agg(mood ORDER BY id) AS moods,
			array_agg(coalesce(run_id, 0) ORDER BY id) AS runs,
			array_agg(turn_complete ORDER BY id) AS done, array_agg(created_at ORDER BY id) AS ats
		FROM messages WHERE session_id = s.id AND id > $3
	) m
	WHERE s.id = $1 AND s.workspace_id = $2`

// turnStateScan holds the destinations of turnStateSQL's nullable columns.
type turnStateScan struct {
	st store.TurnState

	wfID, wfWS                                   *int64
	wfName, wfDesc, wfFailure, wfNotify          *string
	wfVersion                                    *int32
	wfCreated, wfUpdated                         *time.Time
	waitID, waitRun                              *int64
	waitNode, waitKind, waitResume, waitIdentity *string
	waitState, snapshot                          []byte
	waitExpires, waitCreated                     *time.Time
	msgIDs, msgRuns                              []int64
	msgRoles, msgTexts, msgMoods                 []string
	msgDone                                      []bool
	msgAt                                        []time.Time
}

func (x *turnStateScan) dest() []any {
	ss, a := &x.st.Session, &x.st.Agent
	return []any{&ss.ID, &ss.WorkspaceID, &ss.AgentID, &ss.Identity, &ss.Status,
		&ss.ClientExternalID, &ss.Channel, &ss.CreatedAt, &ss.EndedAt,
		&a.ID, &a.WorkspaceID, &a.Name, &a.Persona, &a.DefaultModel, &a.WorkflowID, &a.CreatedAt,
		&x.wfID, &x.wfWS, &x.wfName, &x.wfDesc, &x.wfVersion, &x.wfFailure, &x.wfNotify,
		&x.wfCreated, &x.wfUpdated,
		&x.waitID, &x.waitRun, &x.waitNode, &x.waitKind, &x.waitResume, &x.waitState, &x.waitIdentity,
		&x.waitExpires, &x.waitCreated, &x.snapshot,
		&x.msgIDs, &x.msgRoles, &x.msgTexts, &x.msgMoods, &x.msgRuns, &x.msgDone, &x.msgAt, &ss.ParentSessionID}
}

// state assembles what was scanned.
func (x *turnStateScan) state() (store.TurnState, error) {
	st := x.st
	ss := &st.Session
	ss.CreatedAt, ss.EndedAt = ss.CreatedAt.UTC(), utcPtr(ss.EndedAt)
	st.Agent.CreatedAt = st.Agent.CreatedAt.UTC()
	if x.wfID != nil {
		st.Workflow = store.Workflow{ID: *x.wfID, WorkspaceID: *x.wfWS, Name: *x.wfName,
			Description: *x.wfDesc, PublishedVersion: int(*x.wfVersion),
			FailureResponse: *x.wfFailure, NotifyOnFailure: *x.wfNotify,
			CreatedAt: x.wfCreated.UTC(), UpdatedAt: x.wfUpdated.UTC()}
	}
	if x.waitID != nil {
		ws := waitScan{w: store.Wait{ID: *x.waitID, WorkspaceID: ss.WorkspaceID, SessionID: ss.ID,
			RunID: *x.waitRun, NodeID: *x.waitNode, Kind: *x.waitKind, ResumeOn: *x.waitResume,
			Identity: *x.waitIdentity, Status: vocab.WaitOpen, CreatedAt: *x.waitCreated},
			state: x.waitState, expires: x.waitExpires}
		w := ws.wait()
		st.Wait, st.HasWait, st.Snapshot = w, true, rawJSON(x.snapshot)
	}
	if n := len(x.msgIDs); n > 0 {
		st.History = make([]store.Message, n)
		for i := range st.History {
			st.History[i] = store.Message{ID: x.msgIDs[i], WorkspaceID: ss.WorkspaceID, SessionID: ss.ID,
				Role: x.msgRoles[i], Text: x.msgTexts[i], Mood: x.msgMoods[i], RunID: x.msgRuns[i],
				TurnComplete: x.msgDone[i], CreatedAt: x.msgAt[i].UTC()}
		}
	}
	return st, nil
}

// TurnState reads what a turn needs in one statement (see turnStateSQL).
// An open wait found past its expiry is then closed as EXPIRED and left
// out, as OpenWait does.
func (s *Store) TurnState(ctx context.Context, ws, sessionID int64, now time.Time) (store.TurnState, error) {
	return s.TurnStateSince(ctx, ws, sessionID, now, 0)
}

// TurnStateSince is TurnState reading only the messages after afterMessageID.
func (s *Store) TurnStateSince(ctx context.Context, ws, sessionID int64, now time.Time, afterMessageID int64) (store.TurnState, error) {
	var st store.TurnState
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var x turnStateScan
		if err := c.QueryRow(ctx, turnStateSQL, sessionID, ws, afterMessageID).Scan(x.dest()...); err != nil {
			return mapErr(err)
		}
		var err error
		if st, err = x.state(); err != nil {
			return err
		}
		if w := st.Wait; !st.HasWait || w.ExpiresAt.IsZero() || now.Before(w.ExpiresAt) {
			return nil
		}
		if _, err := c.Exec(ctx, `UPDATE waits SET status = 'EXPIRED'
			WHERE id = $1 AND status = 'OPEN' AND expires_at <= $2`, st.Wait.ID, now); err != nil {
			return fmt.Errorf("expiring wait %d: %w", st.Wait.ID, err)
		}
		st.Wait, st.HasWait, st.Snapshot = store.Wait{}, false, nil
		return nil
	})
	if err != nil {
		return store.TurnState{}, fmt.Errorf("reading the state of session %d: %w", sessionID, err)
	}
	return st, nil
}
