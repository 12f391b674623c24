package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
)

// TurnState reads what a turn needs in one read transaction: one row for
// the session, its agent, the agent's workflow and the open wait, then the
// transcript. An open wait found past its expiry is closed as EXPIRED, on
// the writer, and left out.
func (s *Store) TurnState(ctx context.Context, ws, sessionID int64, now time.Time) (store.TurnState, error) {
	return s.TurnStateSince(ctx, ws, sessionID, now, 0)
}

// TurnStateSince is TurnState reading only the messages after afterMessageID.
func (s *Store) TurnStateSince(ctx context.Context, ws, sessionID int64, now time.Time, afterMessageID int64) (store.TurnState, error) {
	var st store.TurnState
	err := s.readTx(ctx, func(c *conn) error {
		v, err := c.row(qTurnHead, sessionID, ws)
		if err != nil {
			return mapErr(err)
		}
		st.Session = scanSession(append(v[0:9:9], v[38]))
		st.Agent = scanAgent(v[9:16])
		if f := v[16:25]; f[0] != nil {
			st.Workflow = store.Workflow{ID: i64(f[0]), WorkspaceID: i64(f[1]), Name: text(f[2]),
				Description: text(f[3]), PublishedVersion: int(i64(f[4])),
				FailureResponse: text(f[5]), NotifyOnFailure: text(f[6]),
				CreatedAt: msTime(f[7]), UpdatedAt: msTime(f[8])}
		}
		if w := v[25:38]; w[0] != nil {
			if st.Wait, err = scanWait(w); err != nil {
				return err
			}
			st.HasWait, st.Snapshot = true, doc(w[12])
		}
		r, err := c.query(qMessagesAfter, sessionID, ws, afterMessageID)
		if err != nil {
			return err
		}
		defer r.close()
		for {
			ok, err := r.next()
			if err != nil || !ok {
				return err
			}
			st.History = append(st.History, scanMessage(r.vals))
		}
	})
	if err != nil {
		return store.TurnState{}, fmt.Errorf("reading the state of session %d: %w", sessionID, err)
	}
	if w := st.Wait; st.HasWait && !w.ExpiresAt.IsZero() && ms(now) >= ms(w.ExpiresAt) {
		err := s.write(ctx, func(c *conn) error {
			_, err := c.exec(qExpireWait, w.ID, ms(now))
			return err
		})
		if err != nil {
			return store.TurnState{}, fmt.Errorf("expiring wait %d: %w", w.ID, err)
		}
		st.Wait, st.HasWait, st.Snapshot = store.Wait{}, false, nil
	}
	return st, nil
}
