package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"

	msqlite "modernc.org/sqlite"
)

// conn is one SQLite connection and the statements prepared on it, used by
// one goroutine at a time (a pool hands it out).
//
// It talks to the driver directly rather than through database/sql, and runs
// every statement with a context that cannot be cancelled: database/sql
// starts a goroutine per transaction, and the driver one per statement
// whose context can end, which together cost more than the statements of a
// turn. Cancellation is honoured while waiting for a connection instead;
// once a statement runs, it finishes (the busy timeout still bounds waits
// for another process's lock).
type conn struct {
	dc    driver.Conn
	stmts [numQueries]driver.Stmt
}

var bg = context.Background()

func openConn(dsn string) (*conn, error) {
	dc, err := (&msqlite.Driver{}).Open(dsn)
	if err != nil {
		return nil, err
	}
	return &conn{dc: dc}, nil
}

// stmt returns q prepared on c, preparing it on first use.
func (c *conn) stmt(q query) (driver.Stmt, error) {
	if st := c.stmts[q]; st != nil {
		return st, nil
	}
	st, err := c.dc.(driver.ConnPrepareContext).PrepareContext(bg, queries[q])
	if err != nil {
		return nil, fmt.Errorf("preparing %q: %w", queries[q], err)
	}
	c.stmts[q] = st
	return st, nil
}

// exec runs q and returns how many rows it changed.
func (c *conn) exec(q query, args ...any) (int64, error) {
	st, err := c.stmt(q)
	if err != nil {
		return 0, err
	}
	res, err := st.(driver.StmtExecContext).ExecContext(bg, named(args))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// insert runs q, an INSERT, and returns the new row's id; errNoRow when
// it inserted nothing (an INSERT ... SELECT whose condition failed). It
// costs less than RETURNING, which buffers the result in a temporary table.
func (c *conn) insert(q query, args ...any) (int64, error) {
	st, err := c.stmt(q)
	if err != nil {
		return 0, err
	}
	res, err := st.(driver.StmtExecContext).ExecContext(bg, named(args))
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err == nil {
			err = errNoRow
		}
		return 0, err
	}
	return res.LastInsertId()
}

// script runs SQL that may hold several statements, unprepared.
func (c *conn) script(sql string) error {
	_, err := c.dc.(driver.ExecerContext).ExecContext(bg, sql, nil)
	return err
}

// query runs q; the caller closes the rows.
func (c *conn) query(q query, args ...any) (*rows, error) {
	st, err := c.stmt(q)
	if err != nil {
		return nil, err
	}
	r, err := st.(driver.StmtQueryContext).QueryContext(bg, named(args))
	if err != nil {
		return nil, err
	}
	return &rows{r: r, vals: make([]driver.Value, len(r.Columns()))}, nil
}

// row runs q and returns its first row's values; ErrNotFound when there is
// none.
func (c *conn) row(q query, args ...any) ([]driver.Value, error) {
	r, err := c.query(q, args...)
	if err != nil {
		return nil, err
	}
	defer r.close()
	ok, err := r.next()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNoRow
	}
	return r.vals, nil
}

func (c *conn) close() error {
	var errs []error
	for i, st := range c.stmts {
		if st != nil {
			errs = append(errs, st.Close())
			c.stmts[i] = nil
		}
	}
	errs = append(errs, c.dc.Close())
	return errors.Join(errs...)
}

// errNoRow is what row returns for an empty result; callers map it.
var errNoRow = errors.New("no row")

// named numbers args for the driver; an int becomes the int64 it accepts.
func named(args []any) []driver.NamedValue {
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		if n, ok := a.(int); ok {
			a = int64(n)
		}
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return nv
}

// rows iterates a result; vals holds the current row.
type rows struct {
	r    driver.Rows
	vals []driver.Value
}

func (r *rows) next() (bool, error) {
	err := r.r.Next(r.vals)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	return err == nil, err
}

func (r *rows) close() { _ = r.r.Close() }
