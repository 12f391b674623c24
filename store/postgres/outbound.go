package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
	"github.com/wetel/wetel/store/internal/jsoncol"
)

// outboundCols is what scanOutbound reads.
const outboundCols = `id, workspace_id, coalesce(run_id, 0), node_id, method, url, headers, body, status,
	attempts, next_attempt_at, lease_until, error_class, http_status, created_at, finished_at`

// Outbound queue statements.
const (
	// The workspace must exist, and the run, when given, be its own.
	insOutboundSQL = `INSERT INTO outbound (workspace_id, run_id, node_id, method, url, headers, body,
			status, attempts, next_attempt_at, error_class, http_status, created_at)
		SELECT $1, $2, $3, $4, $5, $6, $7, 'PENDING', 0, $8, '', 0, $9
		WHERE EXISTS (SELECT 1 FROM workspaces WHERE id = $1)
		AND ($2::bigint IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = $2 AND workspace_id = $1))
		RETURNING id`
	// SKIP LOCKED: a replica passes over rows another is claiming rather
	// than waiting for them, and never takes one twice. A row claimed and
	// committed meanwhile is re-checked against the WHERE once locked, so
	// its new lease keeps it out.
	claimOutboundSQL = `WITH c AS (
			SELECT id FROM outbound
			WHERE status = 'PENDING' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
			AND NOT (workspace_id = ANY ($4::bigint[]))
			ORDER BY next_attempt_at, id LIMIT $3
			FOR UPDATE SKIP LOCKED
		)
		UPDATE outbound o SET lease_until = $2, attempts = o.attempts + 1 FROM c WHERE o.id = c.id
		RETURNING ` + outboundColsOf
	// A retry (PENDING) moves next_attempt_at; a final status sets
	// finished_at. Either way the lease ends.
	finishOutboundSQL = `UPDATE outbound SET status = $2, error_class = $3, http_status = $4,
		next_attempt_at = coalesce($5, next_attempt_at), lease_until = NULL,
		finished_at = CASE WHEN $2 = 'PENDING' THEN NULL ELSE $6::timestamptz END
		WHERE id = $1 AND status = 'PENDING' AND lease_until IS NOT NULL`
)

// outboundColsOf is outboundCols qualified for the claim's UPDATE ... FROM.
const outboundColsOf = `o.id, o.workspace_id, coalesce(o.run_id, 0), o.node_id, o.method, o.url, o.headers,
	o.body, o.status, o.attempts, o.next_attempt_at, o.lease_until, o.error_class, o.http_status,
	o.created_at, o.finished_at`

// scanOutbound reads outboundCols.
func scanOutbound(r scanner) (store.OutboundRequest, error) {
	var q store.OutboundRequest
	var headers []byte
	if err := r.Scan(&q.ID, &q.WorkspaceID, &q.RunID, &q.NodeID, &q.Method, &q.URL, &headers, &q.Body,
		&q.Status, &q.Attempts, &q.NextAttemptAt, &q.LeaseUntil, &q.ErrorClass, &q.HTTPStatus,
		&q.CreatedAt, &q.FinishedAt); err != nil {
		return store.OutboundRequest{}, err
	}
	var err error
	q.Headers, err = jsoncol.ParseMap(headers)
	if len(q.Body) == 0 {
		q.Body = nil
	}
	q.NextAttemptAt, q.CreatedAt = q.NextAttemptAt.UTC(), q.CreatedAt.UTC()
	q.LeaseUntil, q.FinishedAt = utcPtr(q.LeaseUntil), utcPtr(q.FinishedAt)
	return q, err
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
	r.CreatedAt = orNow(r.CreatedAt)
	if r.NextAttemptAt.IsZero() {
		r.NextAttemptAt = r.CreatedAt
	}
	r.NextAttemptAt = orNow(r.NextAttemptAt)
	r.Status, r.Attempts, r.LeaseUntil, r.ErrorClass, r.HTTPStatus, r.FinishedAt =
		store.OutboundPending, 0, nil, "", 0, nil
	var body []byte
	if len(r.Body) > 0 {
		body = r.Body
	}
	err = s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, insOutboundSQL, r.WorkspaceID, nullID(r.RunID), r.NodeID, r.Method, r.URL,
			jsonText(h), body, r.NextAttemptAt, r.CreatedAt).Scan(&r.ID)
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
	now = now.UTC().Truncate(time.Microsecond)
	if skip == nil {
		skip = []int64{}
	}
	out, err := list(ctx, s, scanOutbound, claimOutboundSQL, now, now.Add(lease), limit, skip)
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
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		tag, err := c.Exec(ctx, finishOutboundSQL, id, status, errorClass, httpStatus, nullTime(nextAttemptAt),
			orNow(time.Time{}))
		if err != nil || tag.RowsAffected() > 0 {
			return err
		}
		var one int
		if err := c.QueryRow(ctx, `SELECT 1 FROM outbound WHERE id = $1`, id).Scan(&one); err != nil {
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
	out, err := listOf(ctx, s, scanOutbound, `SELECT `+outboundCols+` FROM outbound
		WHERE run_id = $1 AND workspace_id = $2 ORDER BY id`, []any{runID, ws}, ws, runInSQL, runID)
	if err != nil {
		return nil, fmt.Errorf("listing requests of run %d: %w", runID, err)
	}
	return out, nil
}
