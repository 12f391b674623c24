package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// appendEventsSQL appends a batch in one statement, so in one round trip
// and atomically. The session's counter moves first: the update locks the
// session row, so a concurrent append to the session waits, then numbers
// its batch after this one (READ COMMITTED re-reads the updated row). No
// row comes back when the session is not the workspace's.
const appendEventsSQL = `WITH s AS (
		UPDATE sessions SET event_seq = event_seq + $3
		WHERE id = $2 AND workspace_id = $1 RETURNING event_seq - $3 AS base
	), i AS (
		INSERT INTO events (session_id, seq, workspace_id, type, payload, created_at)
		SELECT $2, s.base + e.ord, $1, e.type, e.payload, e.at
		FROM s, unnest($4::text[], $5::text[], $6::timestamptz[]) WITH ORDINALITY AS e(type, payload, at, ord)
	)
	SELECT base FROM s`

// AppendEvents numbers evs after the session's last event and stores them.
func (s *Store) AppendEvents(ctx context.Context, ws, sessionID int64, evs []store.Event) ([]store.Event, error) {
	if err := check.Events(ws, sessionID, evs); err != nil {
		return nil, fmt.Errorf("appending events to session %d: %w", sessionID, err)
	}
	n := len(evs)
	types, payloads, ats := make([]string, n), make([]*string, n), make([]time.Time, n)
	now := orNow(time.Time{})
	out := make([]store.Event, n)
	for i, e := range evs {
		if len(e.Payload) > 0 {
			p := string(e.Payload)
			payloads[i] = &p
		}
		e.CreatedAt = now
		if !evs[i].CreatedAt.IsZero() {
			e.CreatedAt = orNow(evs[i].CreatedAt)
		}
		types[i], ats[i], out[i] = e.Type, e.CreatedAt, e
	}
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		if n == 0 {
			return sessionIn(ctx, c, ws, sessionID)
		}
		var base int64
		if err := c.QueryRow(ctx, appendEventsSQL, ws, sessionID, int64(n), types, payloads, ats).Scan(&base); err != nil {
			return mapErr(err)
		}
		for i := range out {
			out[i].WorkspaceID, out[i].SessionID, out[i].Seq = ws, sessionID, base+int64(i)+1
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("appending events to session %d: %w", sessionID, err)
	}
	if n == 0 {
		return nil, nil
	}
	return out, nil
}

// EventsAfter lists the session's events after afterSeq, in order.
func (s *Store) EventsAfter(ctx context.Context, ws, sessionID, afterSeq int64, limit int) ([]store.Event, error) {
	limit, err := check.EventLimit(limit)
	if err != nil {
		return nil, fmt.Errorf("reading events of session %d: %w", sessionID, err)
	}
	scan := func(r scanner) (store.Event, error) {
		e := store.Event{WorkspaceID: ws, SessionID: sessionID}
		var payload []byte
		err := r.Scan(&e.Seq, &e.Type, &payload, &e.CreatedAt)
		e.Payload, e.CreatedAt = rawJSON(payload), e.CreatedAt.UTC()
		return e, err
	}
	out, err := listOf(ctx, s, scan, `SELECT seq, type, payload, created_at FROM events
		WHERE session_id = $1 AND seq > $2 AND workspace_id = $3 ORDER BY seq LIMIT $4`,
		[]any{sessionID, afterSeq, ws, limit}, ws, sessionInSQL, sessionID)
	if err != nil {
		return nil, fmt.Errorf("reading events of session %d: %w", sessionID, err)
	}
	return out, nil
}

// PruneEvents deletes every workspace's events created before before. One
// statement: PostgreSQL's row locks let turns write beside it.
func (s *Store) PruneEvents(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		tag, err := c.Exec(ctx, `DELETE FROM events WHERE created_at < $1`, before)
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("pruning events: %w", err)
	}
	return int(n), nil
}

// LastEventSeq reads the session's event counter.
func (s *Store) LastEventSeq(ctx context.Context, ws, sessionID int64) (int64, error) {
	n, err := readOne(ctx, s, func(r scanner) (int64, error) {
		var n int64
		return n, r.Scan(&n)
	}, `SELECT event_seq FROM sessions WHERE id = $1 AND workspace_id = $2`, sessionID, ws)
	if err != nil {
		return 0, fmt.Errorf("reading the last event of session %d: %w", sessionID, err)
	}
	return n, nil
}
