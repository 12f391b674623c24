package sqlite

import (
	"bytes"
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// The event log is stored a batch to a row (event_batches): one
// AppendEvents call, typically a turn's ten events, is one row and an
// entry in each of its two indexes, where a row per event cost ten rows
// and ten index entries.
//
// A batch's events column is a JSON array with an entry per event, in Seq
// order, so the i-th (from 0) is event first_seq+i:
//
//	["type",age] or ["type",age,payload]
//
// age is how many milliseconds the event is older than the batch's
// created_at, its newest event's time; the payload, when the event has
// one, is the caller's JSON as it came (without the white space around
// it), never re-encoded.

// Event log statements.
const (
	// Moves the session's counter past the batch and returns its new end;
	// no row when the session is not the workspace's.
	bumpEventSeqSQL = `UPDATE sessions SET event_seq = event_seq + ?1
		WHERE id = ?2 AND workspace_id = ?3 RETURNING event_seq`
	insEventSQL = `INSERT INTO event_batches (session_id, last_seq, first_seq, workspace_id, created_at, events)
		VALUES (?, ?, ?, ?, ?, ?)`
	// The oldest first, a chunk at a time (event_batches_created); each
	// deleted row returns its number of events.
	pruneEventsSQL = `DELETE FROM event_batches WHERE id IN (
		SELECT id FROM event_batches WHERE created_at < ? ORDER BY created_at LIMIT ?)
		RETURNING last_seq - first_seq + 1`
	// The batches that hold events after ?2: each holds one at least, so
	// ?4 batches are enough for ?4 events (the reader stops stepping as
	// soon as it has them).
	eventsAfterSQL = `SELECT first_seq, created_at, events FROM event_batches
		WHERE session_id = ?1 AND last_seq > ?2 AND workspace_id = ?3 ORDER BY last_seq LIMIT ?4`
)

// AppendEvents numbers evs after the session's last event and stores them
// as one row, in one transaction. The counter is the session row's, so
// numbering survives pruning; the writer's lock orders concurrent appends.
// A payload must be valid JSON (ErrInvalid otherwise), or empty: it is
// read back as nil. The batch is encoded before the write, outside the
// writer's lock.
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
	newest, size := int64(0), 2
	for i, e := range evs {
		at := now
		if !e.CreatedAt.IsZero() {
			at = ms(e.CreatedAt)
		}
		if i == 0 || at > newest {
			newest = at
		}
		if len(e.Payload) > 0 {
			e.Payload = bytes.TrimSpace(e.Payload)
			if !json.Valid(e.Payload) {
				return nil, fmt.Errorf("appending events to session %d: %w: event %d payload: not valid JSON",
					sessionID, store.ErrInvalid, i)
			}
		}
		e.WorkspaceID, e.SessionID, e.CreatedAt = ws, sessionID, fromMs(at)
		out[i] = e
		size += len(e.Type) + len(e.Payload) + 16
	}
	batch := encodeEvents(out, newest, size)
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qBumpEventSeq, len(evs), sessionID, ws)
		if err != nil {
			return mapErr(err)
		}
		last := i64(v[0])
		first := last - int64(len(evs)) + 1
		if _, err := c.exec(qInsEvent, sessionID, last, first, ws, newest, batch); err != nil {
			return mapErr(err)
		}
		for i := range out {
			out[i].Seq = first + int64(i)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("appending events to session %d: %w", sessionID, err)
	}
	return out, nil
}

// encodeEvents encodes evs, whose times are whole milliseconds and at most
// newest, as a batch's events column; size is about its length.
func encodeEvents(evs []store.Event, newest int64, size int) string {
	var b strings.Builder
	b.Grow(size)
	buf := make([]byte, 0, 64)
	b.WriteByte('[')
	for i, e := range evs {
		if i > 0 {
			b.WriteByte(',')
		}
		buf = append(appendJSONString(append(buf[:0], '['), e.Type), ',')
		buf = strconv.AppendInt(buf, newest-ms(e.CreatedAt), 10)
		b.Write(buf)
		if len(e.Payload) > 0 {
			b.WriteByte(',')
			b.Write(e.Payload)
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return b.String()
}

// appendJSONString appends s as a JSON string. A type is usually a plain
// name, copied as it is; anything else goes through encoding/json.
func appendJSONString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(buf, q...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// errBadBatch is a batch's events column that is not what encodeEvents
// writes.
var errBadBatch = errors.New("malformed event batch")

// decodeEvents appends to out the events of a batch (first is its first
// seq, created its created_at) numbered after after, until out holds
// limit. Payloads share the batch's one buffer, each capped at its end.
func decodeEvents(out []store.Event, ws, sessionID, first, created int64, batch []byte, after int64, limit int) ([]store.Event, error) {
	i := skipSpace(batch, 0)
	if i >= len(batch) || batch[i] != '[' {
		return out, errBadBatch
	}
	i = skipSpace(batch, i+1)
	for seq := first; len(out) < limit; seq++ {
		if i < len(batch) && batch[i] == ']' && seq == first {
			return out, nil // an empty batch: never written, but harmless
		}
		if i >= len(batch) || batch[i] != '[' {
			return out, errBadBatch
		}
		if seq <= after {
			end, err := skipValue(batch, i)
			if err != nil {
				return out, err
			}
			i = end
		} else {
			e := store.Event{WorkspaceID: ws, SessionID: sessionID, Seq: seq}
			var err error
			if i, err = decodeEvent(&e, created, batch, i+1); err != nil {
				return out, err
			}
			out = append(out, e)
		}
		i = skipSpace(batch, i)
		if i >= len(batch) {
			return out, errBadBatch
		}
		if batch[i] == ']' {
			return out, nil
		}
		if batch[i] != ',' {
			return out, errBadBatch
		}
		i = skipSpace(batch, i+1)
	}
	return out, nil
}

// decodeEvent reads an entry's type, age and payload into e, from just
// after its '['; it returns the index after its ']'.
func decodeEvent(e *store.Event, created int64, b []byte, i int) (int, error) {
	i = skipSpace(b, i)
	end, err := skipValue(b, i)
	if err != nil || b[i] != '"' {
		return 0, errBadBatch
	}
	if raw := b[i+1 : end-1]; bytes.IndexByte(raw, '\\') < 0 {
		e.Type = string(raw)
	} else if err := json.Unmarshal(b[i:end], &e.Type); err != nil {
		return 0, errBadBatch
	}
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ',' {
		return 0, errBadBatch
	}
	i = skipSpace(b, i+1)
	if end, err = skipValue(b, i); err != nil {
		return 0, err
	}
	age, err := strconv.ParseInt(string(b[i:end]), 10, 64)
	if err != nil {
		return 0, errBadBatch
	}
	e.CreatedAt = fromMs(created - age)
	i = skipSpace(b, end)
	if i < len(b) && b[i] == ',' {
		i = skipSpace(b, i+1)
		if end, err = skipValue(b, i); err != nil {
			return 0, err
		}
		e.Payload = json.RawMessage(b[i:end:end])
		i = skipSpace(b, end)
	}
	if i >= len(b) || b[i] != ']' {
		return 0, errBadBatch
	}
	return i + 1, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just after the JSON value that starts at
// b[i]. The value was valid JSON when written, so this only finds its
// end: strings, and brackets outside them.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errBadBatch
	}
	switch b[i] {
	case '"':
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1, nil
			}
		}
		return 0, errBadBatch
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := skipValue(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errBadBatch
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != ']' && b[j] != '}' && b[j] != ' ' &&
		b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return 0, errBadBatch
	}
	return j, nil
}

// EventsAfter lists the session's events after afterSeq, in order: the
// batches that hold them, decoded from the first event after afterSeq.
func (s *Store) EventsAfter(ctx context.Context, ws, sessionID, afterSeq int64, limit int) ([]store.Event, error) {
	limit, err := check.EventLimit(limit)
	if err != nil {
		return nil, fmt.Errorf("reading events of session %d: %w", sessionID, err)
	}
	var out []store.Event
	err = s.read(ctx, func(c *conn) error {
		r, err := c.query(qEventsAfter, sessionID, afterSeq, ws, limit)
		if err != nil {
			return err
		}
		defer r.close()
		for len(out) < limit {
			ok, err := r.next()
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			first, created := i64(r.vals[0]), i64(r.vals[1])
			var batch []byte
			switch v := r.vals[2].(type) {
			case string:
				batch = []byte(v)
			case []byte:
				batch = bytes.Clone(v) // the driver may reuse its buffer
			}
			if out, err = decodeEvents(out, ws, sessionID, first, created, batch, afterSeq, limit); err != nil {
				return fmt.Errorf("batch of events %d on: %w", first, err)
			}
		}
		if len(out) == 0 {
			return owns(c, ws, qSessionIn, sessionID)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading events of session %d: %w", sessionID, err)
	}
	return out, nil
}

// pruneBatch bounds one PruneEvents write, in batches (of a turn's ten
// events or so: the 2000 events a write deleted when a row held one), so
// that turns queued behind the writer wait for a short delete, never for
// an hour's worth of events.
const pruneBatch = 200

// PruneEvents deletes every workspace's event batches whose newest event
// was created before before, a chunk of batches per write, and returns how
// many events they held. A batch is one AppendEvents call: it is kept
// whole while any of its events was created at or after before.
func (s *Store) PruneEvents(ctx context.Context, before time.Time) (int, error) {
	total := 0
	for {
		var rows, n int
		err := s.write(ctx, func(c *conn) error {
			rows, n = 0, 0
			r, err := c.query(qPruneEvents, ms(before), pruneBatch)
			if err != nil {
				return err
			}
			defer r.close()
			for {
				ok, err := r.next()
				if err != nil || !ok {
					return err
				}
				rows++
				n += int(i64(r.vals[0]))
			}
		})
		if err != nil {
			return total, fmt.Errorf("pruning events: %w", err)
		}
		total += n
		if rows < pruneBatch {
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
