package sqlite

import (
	"context"
	"database/sql/driver"
)

// collect runs q and scans every row.
func collect[T any](c *conn, scan func([]driver.Value) (T, error), q query, args ...any) ([]T, error) {
	r, err := c.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer r.close()
	var out []T
	for {
		ok, err := r.next()
		if err != nil || !ok {
			return out, err
		}
		x, err := scan(r.vals)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
}

// readList runs q on a reader and scans every row.
func readList[T any](ctx context.Context, s *Store, scan func([]driver.Value) (T, error), q query, args ...any) ([]T, error) {
	var out []T
	err := s.read(ctx, func(c *conn) error {
		var err error
		out, err = collect(c, scan, q, args...)
		return err
	})
	return out, err
}

// readListOf is readList for rows that belong to a parent (a workflow's
// versions, an agent's sessions): an empty result is ErrNotFound when the
// parent, read by in with (parent, ws), is not ws's, so another workspace's
// id never reads as an empty list.
func readListOf[T any](ctx context.Context, s *Store, scan func([]driver.Value) (T, error), q query, args []any,
	ws int64, in query, parent int64) ([]T, error) {
	var out []T
	err := s.read(ctx, func(c *conn) error {
		var err error
		out, err = collect(c, scan, q, args...)
		if err == nil && len(out) == 0 {
			err = owns(c, ws, in, parent)
		}
		return err
	})
	return out, err
}

// owns returns ErrNotFound unless parent, read by in, is ws's; a parent of
// 0 is no filter and passes.
func owns(c *conn, ws int64, in query, parent int64) error {
	if parent == 0 {
		return nil
	}
	_, err := c.row(in, parent, ws)
	return mapErr(err)
}

// noErr adapts a scan that cannot fail to collect.
func noErr[T any](scan func([]driver.Value) T) func([]driver.Value) (T, error) {
	return func(v []driver.Value) (T, error) { return scan(v), nil }
}

// readOne runs q on a reader and scans its row; ErrNotFound when none.
func readOne[T any](ctx context.Context, s *Store, scan func([]driver.Value) (T, error), q query, args ...any) (T, error) {
	var x T
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(q, args...)
		if err == nil {
			x, err = scan(v)
		}
		return err
	})
	if err != nil {
		var zero T
		return zero, mapErr(err)
	}
	return x, nil
}
