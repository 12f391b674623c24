package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// appendEventsSQL appends a batch as one row of event_batches, in one
// statement, so in one round trip and atomically. The session's counter
// moves first: the update locks the session row, so a concurrent append
// to the session waits, then numbers its batch after this one (READ
// COMMITTED re-reads the updated row). No row comes back when the session
// is not the workspace's.
const appendEventsSQL = `WITH s AS (
		UPDATE sessions SET event_seq = event_seq + $3
		WHERE id = $2 AND workspace_id = $1 RETURNING event_seq - $3 AS base
	), i AS (
		INSERT INTO event_batches (session_id, last_seq, first_seq, workspace_id, created_at, types, payloads, created_ats)
		SELECT $2, s.base + $3, s.base + 1, $1, $4, $5, $6, $7 FROM s
	)
	SELECT base FROM s`

// AppendEvents numbers evs after the session's last event and stores them
// as one row. A payload must be valid JSON (ErrInvalid otherwise), or
// empty: it is read back as nil.
func (s *Store) AppendEvents(ctx context.Context, ws, sessionID int64, evs []store.Event) ([]store.Event, error) {
	if err := check.Events(ws, sessionID, evs); err != nil {
		return nil, fmt.Errorf("appending events to session %d: %w", sessionID, err)
	}
	n := len(evs)
	types, payloads, ats := make([]string, n), make([]*string, n), make([]time.Time, n)
	now := orNow(time.Time{})
	var newest time.Time
	out := make([]store.Event, n)
	for i, e := range evs {
		if len(e.Payload) > 0 {
			e.Payload = bytes.TrimSpace(e.Payload)
			if !json.Valid(e.Payload) {
				return nil, fmt.Errorf("appending events to session %d: %w: event %d payload: not valid JSON",
					sessionID, store.ErrInvalid, i)
			}
			p := string(e.Payload)
			payloads[i] = &p
		}
		e.CreatedAt = now
		if !evs[i].CreatedAt.IsZero() {
			e.CreatedAt = orNow(evs[i].CreatedAt)
		}
		if i == 0 || e.CreatedAt.After(newest) {
			newest = e.CreatedAt
		}
		types[i], ats[i], out[i] = e.Type, e.CreatedAt, e
	}
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		if n == 0 {
			return sessionIn(ctx, c, ws, sessionID)
		}
		var base int64
		err := c.QueryRow(ctx, appendEventsSQL, ws, sessionID, int64(n), newest, types, payloads, ats).Scan(&base)
		if err != nil {
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

// eventsAfterSQL unnests the batches that hold events after $2, from the
// first batch ending after it (the primary key), an event to a row. The
// batches come in order from the index and each one's events in order
// from unnest, so the sort is an incremental one, by ord within a batch,
// and the LIMIT stops reading batches once it has its events.
const eventsAfterSQL = `SELECT b.first_seq + e.ord - 1, e.type, e.payload, e.created_at
	FROM event_batches b,
		unnest(b.types, b.payloads, b.created_ats) WITH ORDINALITY AS e(type, payload, created_at, ord)
	WHERE b.session_id = $1 AND b.last_seq > $2 AND b.workspace_id = $3 AND b.first_seq + e.ord - 1 > $2
	ORDER BY b.last_seq, e.ord LIMIT $4`

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
	out, err := listOf(ctx, s, scan, eventsAfterSQL, []any{sessionID, afterSeq, ws, limit}, ws, sessionInSQL, sessionID)
	if err != nil {
		return nil, fmt.Errorf("reading events of session %d: %w", sessionID, err)
	}
	return out, nil
}

// PruneEvents deletes every workspace's event batches whose newest event
// was created before before, and returns how many events they held. A
// batch is one AppendEvents call: it is kept whole while any of its
// events was created at or after before. One statement: PostgreSQL's row
// locks let turns write beside it.
func (s *Store) PruneEvents(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `WITH d AS (
				DELETE FROM event_batches WHERE created_at < $1 RETURNING last_seq - first_seq + 1 AS n
			)
			SELECT coalesce(sum(n), 0)::bigint FROM d`, before).Scan(&n)
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
