package sqlite

import (
	"cmp"
	"context"
	"database/sql/driver"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
	"github.com/wetel/wetel/store/internal/jsoncol"
)

// outboundCols is what scanOutbound reads.
const outboundCols = `id, workspace_id, run_id, node_id, method, url, headers, body, status, attempts,
	next_attempt_at, lease_until, error_class, http_status, created_at, finished_at`

// Outbound queue statements.
const (
	// The workspace must exist, and the run, when given, be its own.
	insOutboundSQL = `INSERT INTO outbound (workspace_id, run_id, node_id, method, url, headers, body,
		status, attempts, next_attempt_at, error_class, http_status, created_at)
		SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 'PENDING', 0, ?8, '', 0, ?9
		WHERE EXISTS (SELECT 1 FROM workspaces WHERE id = ?1)
		AND (?2 IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = ?2 AND workspace_id = ?1))`
	// One statement under the writer's lock: no other claim can run
	// between choosing the rows and leasing them, in this process or in
	// another one on the same file (BEGIN IMMEDIATE).
	claimOutboundSQL = `UPDATE outbound SET lease_until = ?2, attempts = attempts + 1
		WHERE id IN (SELECT id FROM outbound
			WHERE status = 'PENDING' AND next_attempt_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1)
			AND workspace_id NOT IN (SELECT value FROM json_each(?4))
			ORDER BY next_attempt_at, id LIMIT ?3)
		RETURNING ` + outboundCols
	// A retry (PENDING) moves next_attempt_at; a final status sets
	// finished_at. Either way the lease ends.
	finishOutboundSQL = `UPDATE outbound SET status = ?2, error_class = ?3, http_status = ?4,
		next_attempt_at = coalesce(?5, next_attempt_at), lease_until = NULL,
		finished_at = CASE WHEN ?2 = 'PENDING' THEN NULL ELSE ?6 END
		WHERE id = ?1 AND status = 'PENDING' AND lease_until IS NOT NULL`
)

// scanOutbound reads outboundCols.
func scanOutbound(v []driver.Value) (store.OutboundRequest, error) {
	h, err := jsoncol.ParseMap(blob(v[6]))
	return store.OutboundRequest{ID: i64(v[0]), WorkspaceID: i64(v[1]), RunID: i64(v[2]),
		NodeID: text(v[3]), Method: text(v[4]), URL: text(v[5]), Headers: h, Body: blob(v[7]),
		Status: text(v[8]), Attempts: int(i64(v[9])), NextAttemptAt: msTime(v[10]),
		LeaseUntil: msTimePtr(v[11]), ErrorClass: text(v[12]), HTTPStatus: int(i64(v[13])),
		CreatedAt: msTime(v[14]), FinishedAt: msTimePtr(v[15])}, err
}

// EnqueueOutbound queues r PENDING.
func (s *Store) EnqueueOutbound(ctx context.Context, r store.OutboundRequest) (store.OutboundRequest, error) {
	if err := check.Outbound(&r); err != nil {
		return store.OutboundRequest{}, fmt.Errorf("queueing a request: %w", err)
	}
	h, err := jsoncol.Map(r.Headers)
	if err != nil {
		return store.OutboundRequest{}, err
	}
	r.CreatedAt = fromMs(msOrNow(r.CreatedAt))
	if r.NextAttemptAt.IsZero() {
		r.NextAttemptAt = r.CreatedAt
	}
	r.NextAttemptAt = fromMs(ms(r.NextAttemptAt))
	r.Status, r.Attempts, r.LeaseUntil, r.ErrorClass, r.HTTPStatus, r.FinishedAt =
		store.OutboundPending, 0, nil, "", 0, nil
	var body any
	if len(r.Body) > 0 {
		body = r.Body
	}
	err = s.write(ctx, func(c *conn) error {
		var err error
		r.ID, err = c.insert(qInsOutbound, r.WorkspaceID, nullID(r.RunID), r.NodeID, r.Method, r.URL,
			jsonText(h), body, ms(r.NextAttemptAt), ms(r.CreatedAt))
		return err
	})
	if err != nil {
		return store.OutboundRequest{}, fmt.Errorf("queueing a request of run %d: %w", r.RunID, mapErr(err))
	}
	return r, nil
}

// ClaimOutbound leases up to limit due requests of every workspace.
func (s *Store) ClaimOutbound(ctx context.Context, now time.Time, lease time.Duration, limit int, skip []int64) ([]store.OutboundRequest, error) {
	limit, err := check.Claim(lease, limit)
	if err != nil {
		return nil, fmt.Errorf("claiming requests: %w", err)
	}
	var out []store.OutboundRequest
	err = s.write(ctx, func(c *conn) error {
		var err error
		out, err = collect(c, scanOutbound, qClaimOutbound, ms(now), ms(now.Add(lease)), limit, idList(skip))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("claiming requests: %w", err)
	}
	// RETURNING gives rows in no promised order.
	slices.SortFunc(out, func(a, b store.OutboundRequest) int {
		if c := a.NextAttemptAt.Compare(b.NextAttemptAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out, nil
}

// FinishOutbound records a leased request's attempt.
func (s *Store) FinishOutbound(ctx context.Context, id int64, status, errorClass string, httpStatus int, nextAttemptAt *time.Time) error {
	if err := check.Finish(status, nextAttemptAt); err != nil {
		return fmt.Errorf("finishing request %d: %w", id, err)
	}
	var next any
	if nextAttemptAt != nil {
		next = ms(*nextAttemptAt)
	}
	err := s.write(ctx, func(c *conn) error {
		n, err := c.exec(qFinishOutbound, id, status, errorClass, httpStatus, next, msOrNow(time.Time{}))
		if err != nil || n > 0 {
			return err
		}
		if _, err := c.row(qOutboundIn, id); err != nil {
			return mapErr(err)
		}
		return fmt.Errorf("request %d is not leased: %w", id, store.ErrConflict)
	})
	if err != nil {
		return fmt.Errorf("finishing request %d: %w", id, err)
	}
	return nil
}

// OutboundByRun lists what a run of ws queued, in id order.
func (s *Store) OutboundByRun(ctx context.Context, ws, runID int64) ([]store.OutboundRequest, error) {
	out, err := readListOf(ctx, s, scanOutbound, qOutboundByRun, []any{runID, ws}, ws, qRunIn, runID)
	if err != nil {
		return nil, fmt.Errorf("listing requests of run %d: %w", runID, err)
	}
	return out, nil
}

// idList is ids as a JSON array, for json_each: "[]" when there are none.
func idList(ids []int64) string {
	b := make([]byte, 0, 2+8*len(ids))
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, ']'))
}
