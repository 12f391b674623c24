package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// Event log statements.
const (
	// Moves the session's counter past the batch and returns its new end;
	// no row when the session is not the workspace's.
	bumpEventSeqSQL = `UPDATE sessions SET event_seq = event_seq + ?1
		WHERE id = ?2 AND workspace_id = ?3 RETURNING event_seq`
	insEventSQL = `INSERT INTO events (session_id, seq, workspace_id, type, payload, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`
	// The oldest first, a batch at a time (events_created).
	pruneEventsSQL = `DELETE FROM events WHERE (session_id, seq) IN (
		SELECT session_id, seq FROM events WHERE created_at < ? ORDER BY created_at LIMIT ?)`
	eventsAfterSQL = `SELECT seq, type, payload, created_at FROM events
		WHERE session_id = ?1 AND seq > ?2 AND workspace_id = ?3 ORDER BY seq LIMIT ?4`
)

// AppendEvents numbers evs after the session's last event and stores them,
// in one transaction. The counter is the session row's, so numbering
// survives pruning; the writer's lock orders concurrent appends. One
// prepared insert per event: they run in process, in the one transaction,
// so a multi-row statement would save no round trip.
func (s *Store) AppendEvents(ctx context.Context, ws, sessionID int64, evs []store.Event) ([]store.Event, error) {
	if err := check.Events(ws, sessionID, evs); err != nil {
		return nil, fmt.Errorf("appending events to session %d: %w", sessionID, err)
	}
	if len(evs) == 0 {
		err := s.read(ctx, func(c *conn) error { return sessionIn(c, ws, sessionID) })
		if err != nil {
			return nil, fmt.Errorf("appending events to session %d: %w", sessionID, err)
		}
		return nil, nil
	}
	out := make([]store.Event, len(evs))
	now := msOrNow(time.Time{})
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qBumpEventSeq, len(evs), sessionID, ws)
		if err != nil {
			return mapErr(err)
		}
		first := i64(v[0]) - int64(len(evs)) + 1
		for i, e := range evs {
			at := now
			if !e.CreatedAt.IsZero() {
				at = ms(e.CreatedAt)
			}
			e.WorkspaceID, e.SessionID, e.Seq, e.CreatedAt = ws, sessionID, first+int64(i), fromMs(at)
			if _, err := c.exec(qInsEvent, sessionID, e.Seq, ws, e.Type, jsonText(e.Payload), at); err != nil {
				return err
			}
			out[i] = e
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("appending events to session %d: %w", sessionID, err)
	}
	return out, nil
}

// EventsAfter lists the session's events after afterSeq, in order.
func (s *Store) EventsAfter(ctx context.Context, ws, sessionID, afterSeq int64, limit int) ([]store.Event, error) {
	limit, err := check.EventLimit(limit)
	if err != nil {
		return nil, fmt.Errorf("reading events of session %d: %w", sessionID, err)
	}
	scan := func(v []driver.Value) (store.Event, error) {
		return store.Event{WorkspaceID: ws, SessionID: sessionID, Seq: i64(v[0]), Type: text(v[1]),
			Payload: doc(v[2]), CreatedAt: msTime(v[3])}, nil
	}
	out, err := readListOf(ctx, s, scan, qEventsAfter, []any{sessionID, afterSeq, ws, limit}, ws, qSessionIn, sessionID)
	if err != nil {
		return nil, fmt.Errorf("reading events of session %d: %w", sessionID, err)
	}
	return out, nil
}

// pruneBatch bounds one PruneEvents write, so that turns queued behind the
// writer wait for a short delete, never for an hour's worth of events.
const pruneBatch = 2000

// PruneEvents deletes every workspace's events created before before, a
// batch per write.
func (s *Store) PruneEvents(ctx context.Context, before time.Time) (int, error) {
	total := 0
	for {
		var n int64
		err := s.write(ctx, func(c *conn) error {
			var err error
			n, err = c.exec(qPruneEvents, ms(before), pruneBatch)
			return err
		})
		total += int(n)
		if err != nil {
			return total, fmt.Errorf("pruning events: %w", err)
		}
		if n < pruneBatch {
			return total, nil
		}
	}
}

// LastEventSeq reads the session's event counter.
func (s *Store) LastEventSeq(ctx context.Context, ws, sessionID int64) (int64, error) {
	v, err := readOne(ctx, s, func(v []driver.Value) (int64, error) { return i64(v[0]), nil }, qLastEventSeq, sessionID, ws)
	if err != nil {
		return 0, fmt.Errorf("reading the last event of session %d: %w", sessionID, err)
	}
	return v, nil
}
