package sqlite

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
)

// scanWait reads waitCols.
func scanWait(v []driver.Value) (store.Wait, error) {
	w := store.Wait{ID: i64(v[0]), WorkspaceID: i64(v[1]), SessionID: i64(v[2]), RunID: i64(v[3]),
		NodeID: text(v[4]), Kind: text(v[5]), ResumeOn: text(v[6]), State: doc(v[7]),
		Identity: text(v[8]), Status: text(v[9]), CreatedAt: msTime(v[11])}
	if v[10] != nil {
		w.ExpiresAt = msTime(v[10])
	}
	return w, nil
}

// OpenWait returns the session's OPEN wait resumed by a reply, and its
// snapshot. One found past its expiry is closed as EXPIRED, on the writer,
// and reads as ErrNotFound.
func (s *Store) OpenWait(ctx context.Context, ws, sessionID int64, now time.Time) (store.Wait, json.RawMessage, error) {
	w, snap, err := s.waitWithSnapshot(ctx, qOpenWait, sessionID, ws)
	if err != nil {
		return store.Wait{}, nil, fmt.Errorf("reading open wait of session %d: %w", sessionID, err)
	}
	if !w.ExpiresAt.IsZero() && ms(now) >= ms(w.ExpiresAt) {
		err := s.write(ctx, func(c *conn) error {
			_, err := c.exec(qExpireWait, w.ID, ms(now))
			return err
		})
		if err != nil {
			return store.Wait{}, nil, fmt.Errorf("expiring wait %d: %w", w.ID, err)
		}
		return store.Wait{}, nil, fmt.Errorf("wait %d of session %d expired: %w", w.ID, sessionID, store.ErrNotFound)
	}
	return w, snap, nil
}

// WaitByID reads a wait of ws with its snapshot.
func (s *Store) WaitByID(ctx context.Context, ws, id int64) (store.Wait, json.RawMessage, error) {
	w, snap, err := s.waitWithSnapshot(ctx, qWaitByID, id, ws)
	if err != nil {
		return store.Wait{}, nil, fmt.Errorf("reading wait %d: %w", id, err)
	}
	return w, snap, nil
}

// waitWithSnapshot reads one row of waitCols and the snapshot after them.
func (s *Store) waitWithSnapshot(ctx context.Context, q query, args ...any) (store.Wait, json.RawMessage, error) {
	var w store.Wait
	var snap json.RawMessage
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(q, args...)
		if err != nil {
			return mapErr(err)
		}
		w, err = scanWait(v)
		snap = doc(v[12])
		return err
	})
	return w, snap, err
}

// PendingWaits lists OPEN, unexpired waits of a kind in id order, without snapshots.
func (s *Store) PendingWaits(ctx context.Context, ws, sessionID int64, kind string, now time.Time) ([]store.Wait, error) {
	var out []store.Wait
	err := s.read(ctx, func(c *conn) error {
		var r *rows
		var err error
		if sessionID == 0 {
			r, err = c.query(qPendingWS, ws, kind, ms(now))
		} else {
			r, err = c.query(qPendingSession, sessionID, ws, kind, ms(now))
		}
		if err != nil {
			return err
		}
		defer r.close()
		for {
			ok, err := r.next()
			if err != nil || !ok {
				if err == nil && len(out) == 0 && sessionID != 0 {
					err = sessionIn(c, ws, sessionID)
				}
				return err
			}
			w, err := scanWait(r.vals)
			if err != nil {
				return err
			}
			out = append(out, w)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("listing pending waits: %w", err)
	}
	return out, nil
}

// CountOpenWaits counts every workspace's OPEN, unexpired waits.
func (s *Store) CountOpenWaits(ctx context.Context, now time.Time) (int, error) {
	n, err := readOne(ctx, s, func(v []driver.Value) (int64, error) { return i64(v[0]), nil }, qCountOpenWaits, ms(now))
	if err != nil {
		return 0, fmt.Errorf("counting open waits: %w", err)
	}
	return int(n), nil
}
