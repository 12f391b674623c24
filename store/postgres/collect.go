package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// scanner is a row to scan: pgx.Row or a row of pgx.Rows.
type scanner interface {
	Scan(dest ...any) error
}

// queryList runs sql and scans every row; no rows is a nil list, as the
// other listings return.
func queryList[T any](ctx context.Context, c *pgx.Conn, scan func(scanner) (T, error), sql string, args ...any) ([]T, error) {
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (T, error) { return scan(r) })
	if len(out) == 0 {
		out = nil
	}
	return out, err
}

// list runs queryList on a pooled connection.
func list[T any](ctx context.Context, s *Store, scan func(scanner) (T, error), sql string, args ...any) ([]T, error) {
	var out []T
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var err error
		out, err = queryList(ctx, c, scan, sql, args...)
		return err
	})
	return out, err
}

// listOf is list for rows that belong to a parent (a workflow's versions,
// a run's requests): an empty result is ErrNotFound when the parent, read
// by inSQL with (parent, ws), is not ws's, so another workspace's id never
// reads as an empty list. A parent of 0 is no filter and is not checked.
func listOf[T any](ctx context.Context, s *Store, scan func(scanner) (T, error), sql string, args []any,
	ws int64, inSQL string, parent int64) ([]T, error) {
	var out []T
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var err error
		out, err = queryList(ctx, c, scan, sql, args...)
		if err == nil && len(out) == 0 {
			err = owns(ctx, c, ws, inSQL, parent)
		}
		return err
	})
	return out, err
}

// owns returns ErrNotFound unless parent, read by inSQL with (parent, ws),
// is ws's; a parent of 0 passes.
func owns(ctx context.Context, c *pgx.Conn, ws int64, inSQL string, parent int64) error {
	if parent == 0 {
		return nil
	}
	var one int
	return mapErr(c.QueryRow(ctx, inSQL, parent, ws).Scan(&one))
}

// readOne reads a row with scan on a pooled connection; ErrNotFound when none.
func readOne[T any](ctx context.Context, s *Store, scan func(scanner) (T, error), sql string, args ...any) (T, error) {
	var x T
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var err error
		x, err = scan(c.QueryRow(ctx, sql, args...))
		return err
	})
	if err != nil {
		var zero T
		return zero, mapErr(err)
	}
	return x, nil
}

// Ownership reads for listOf and owns.
const (
	workflowInSQL = `SELECT 1 FROM workflows WHERE id = $1 AND workspace_id = $2`
	agentInSQL    = `SELECT 1 FROM agents WHERE id = $1 AND workspace_id = $2`
	sessionInSQL  = `SELECT 1 FROM sessions WHERE id = $1 AND workspace_id = $2`
	runInSQL      = `SELECT 1 FROM runs WHERE id = $1 AND workspace_id = $2`
)
