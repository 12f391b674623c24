package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
)

// Steps of an EndTurn that changed nothing; explainEndTurn says why.
var (
	errRunNotRunning = errors.New("the run is not a running run of the workspace")
	errWaitNotOpen   = errors.New("the wait is not an open wait of the session")
)

// SQLSTATEs that wetel_expect raises, one per step it guards.
const (
	stateRunNotRunning = "WT001"
	stateWaitNotOpen   = "WT002"
	stateForeignMsg    = "WT003"
)

// The statements after the first find the session through the run: the
// first statement has just proven the run the workspace's own.
const (
	finishRunSQL = `WITH u AS (
			UPDATE runs SET status = $1, node_trace = $2, error = $3, error_code = $4, finished_at = $5
			WHERE id = $6 AND workspace_id = $7 AND status = 'RUNNING' RETURNING 1
		)
		SELECT wetel_expect(count(*), 1, '` + stateRunNotRunning + `') FROM u`
	// Messages that name another session are left out, and so counted.
	endMessagesSQL = `WITH i AS (
			INSERT INTO messages (workspace_id, session_id, role, text, mood, run_id, turn_complete, created_at)
			SELECT r.workspace_id, r.session_id, m.role, m.text, m.mood, r.id, m.turn_complete, m.created_at
			FROM runs r, unnest($2::text[], $3::text[], $4::text[], $5::boolean[], $6::timestamptz[], $7::bigint[])
				WITH ORDINALITY AS m(role, text, mood, turn_complete, created_at, session_id, ord)
			WHERE r.id = $1 AND (m.session_id = 0 OR m.session_id = r.session_id)
			ORDER BY m.ord
			RETURNING id
		)
		SELECT wetel_expect(count(*), cardinality($2::text[]), '` + stateForeignMsg + `'), array_agg(id ORDER BY id) FROM i`
	closeWaitSQL = `WITH u AS (
			UPDATE waits SET status = $1
			WHERE id = $2 AND workspace_id = $3 AND status = 'OPEN'
			AND session_id = (SELECT session_id FROM runs WHERE id = $4)
			RETURNING 1
		)
		SELECT wetel_expect(count(*), 1, '` + stateWaitNotOpen + `') FROM u`
	// lockSessionSQL holds the run's session FOR SHARE before a pause opens
	// its wait, so a concurrent endSession or setSessionIdentity, which locks
	// it FOR UPDATE, either ran first (and openWaitSQL sees the session
	// ended) or runs after and cancels the new wait.
	lockSessionSQL = `SELECT 1 FROM sessions WHERE id = (SELECT session_id FROM runs WHERE id = $1) FOR SHARE`
	// A wait left by a run whose session ended while it ran is born
	// CANCELLED: ending a session cancels its waits "on every path".
	openWaitSQL = `INSERT INTO waits (workspace_id, session_id, run_id, node_id, kind, resume_on,
			state, identity, status, expires_at, created_at, snapshot)
		SELECT r.workspace_id, r.session_id, r.id, $2, $3, $4, $5, $6,
			CASE WHEN s.status = 'OPEN' THEN 'OPEN' ELSE 'CANCELLED' END, $7, $8, $9
		FROM runs r JOIN sessions s ON s.id = r.session_id WHERE r.id = $1`
	endSessionSQL = `WITH u AS (
			UPDATE sessions SET status = 'ENDED', ended_at = $2
			WHERE id = (SELECT session_id FROM runs WHERE id = $1) AND status = 'OPEN'
			RETURNING id
		)
		UPDATE waits SET status = 'CANCELLED' WHERE session_id IN (SELECT id FROM u) AND status = 'OPEN'`
)

// sendEndTurn sends the turn's statements as one batch, which the server
// runs as one implicit transaction: a failed step, including one that
// changed nothing (wetel_expect), rolls all of them back.
func sendEndTurn(ctx context.Context, c *pgx.Conn, t *store.TurnEnd) error {
	r := &t.Run
	finished := orNow(derefTime(r.FinishedAt))
	b := &pgx.Batch{}
	if t.Pause != nil {
		b.Queue(lockSessionSQL, r.ID)
	}
	messagesAt := b.Len() + 1 // after finishRunSQL
	b.Queue(finishRunSQL, r.Status, jsonText(r.NodeTrace), r.Error, r.ErrorCode, finished, r.ID, r.WorkspaceID)
	if n := len(t.Messages); n > 0 {
		roles, texts, moods := make([]string, n), make([]string, n), make([]string, n)
		done, at, sess := make([]bool, n), make([]time.Time, n), make([]int64, n)
		for i, m := range t.Messages {
			roles[i], texts[i], moods[i] = m.Role, m.Text, m.Mood
			done[i], at[i], sess[i] = m.TurnComplete, orNow(m.CreatedAt), m.SessionID
		}
		b.Queue(endMessagesSQL, r.ID, roles, texts, moods, done, at, sess)
	}
	if cw := t.CloseWait; cw != nil {
		b.Queue(closeWaitSQL, cw.Status, cw.WaitID, r.WorkspaceID, r.ID)
	}
	if p := t.Pause; p != nil {
		w := &p.Wait
		b.Queue(openWaitSQL, r.ID, w.NodeID, w.Kind, w.ResumeOn, jsonText(w.State), w.Identity,
			nullTime(&w.ExpiresAt), orNow(w.CreatedAt), jsonText(p.Snapshot))
	}
	if t.EndSession {
		b.Queue(endSessionSQL, r.ID, finished)
	}
	res := c.SendBatch(ctx, b)
	var err error
	for i := range b.Len() {
		if i == messagesAt && len(t.Messages) > 0 {
			// The messages' ids, in the order they were given (ids grow
			// with the insert order), written back for the caller.
			var ok any
			var ids []int64
			if err = res.QueryRow().Scan(&ok, &ids); err != nil {
				break
			}
			for k := range t.Messages {
				if k < len(ids) {
					t.Messages[k].ID = ids[k]
				}
			}
			continue
		}
		if _, err = res.Exec(); err != nil {
			break
		}
	}
	if cerr := res.Close(); err == nil {
		err = cerr
	}
	return endTurnErr(err, t)
}

// endTurnErr names the step that failed.
func endTurnErr(err error, t *store.TurnEnd) error {
	switch sqlState(err) {
	case "":
		return err
	case stateRunNotRunning:
		return errRunNotRunning
	case stateWaitNotOpen:
		return errWaitNotOpen
	case stateForeignMsg:
		return fmt.Errorf("a message names another session than run %d's: %w", t.Run.ID, store.ErrNotFound)
	case uniqueViolation:
		return fmt.Errorf("opening a wait for run %d: %w", t.Run.ID, store.ErrWaitExists)
	}
	return err
}

// derefTime is *t, or the zero time for nil.
func derefTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}
