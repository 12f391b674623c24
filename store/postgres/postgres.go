// Package postgres is the server store.Store: PostgreSQL through pgx, for a
// deployment with many tenants or more than one process.
//
// Each call costs as few round trips as its rules allow: StartTurn is one
// statement, EndTurn one pipelined batch that the server runs as one
// transaction, so a turn's writes are two round trips and two commits. pgx
// prepares every statement once per connection and reuses it.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wetel/wetel/store"
)

// defaultMaxConns is the pool size when the URL does not set
// pool_max_conns.
const defaultMaxConns = 8

// Store is a store.Store on a PostgreSQL database. It is safe for
// concurrent use.
type Store struct {
	p *pool
}

// Open connects to the database at url and migrates its schema to the
// newest version. Settings the server knows, such as search_path, may be
// given as URL parameters and apply to every connection; pool_max_conns
// sets the pool size (default 8).
func Open(ctx context.Context, url string) (*Store, error) {
	s, err := open(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("opening postgres: %w", err)
	}
	return s, nil
}

func open(ctx context.Context, rawURL string) (*Store, error) {
	rawURL, max, err := poolSize(rawURL)
	if err != nil {
		return nil, err
	}
	cfg, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return nil, err
	}
	s := &Store{p: newPool(cfg, max)}
	if err := s.with(ctx, applyMigrations); err != nil {
		s.p.close()
		return nil, err
	}
	return s, nil
}

// poolSize takes pool_max_conns out of the URL: pgx would send it to the
// server as a setting.
func poolSize(rawURL string) (string, int, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return rawURL, defaultMaxConns, nil // a key=value DSN: pgx parses it
	}
	q := u.Query()
	v := q.Get("pool_max_conns")
	if v == "" {
		return rawURL, defaultMaxConns, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("pool_max_conns %q: want a positive number", v)
	}
	q.Del("pool_max_conns")
	u.RawQuery = q.Encode()
	return u.String(), n, nil
}

// Close waits for calls in progress and closes every connection. Closing
// twice is harmless.
func (s *Store) Close() error {
	s.p.close()
	return nil
}

// with runs fn on a pooled connection.
func (s *Store) with(ctx context.Context, fn func(context.Context, *pgx.Conn) error) error {
	c, err := s.p.get(ctx)
	if err != nil {
		return err
	}
	defer s.p.put(c)
	return fn(ctx, c)
}

// inTx runs fn in a transaction, committing only when fn returns nil.
func (s *Store) inTx(ctx context.Context, fn func(context.Context, pgx.Tx) error) error {
	return s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error { return fn(ctx, tx) })
	})
}

// SQLSTATE codes the store maps to its sentinels.
const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// mapErr turns "no rows" and a foreign-key failure into ErrNotFound (the row
// named does not exist, or not in that workspace) and a uniqueness failure
// into ErrConflict.
func mapErr(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	switch sqlState(err) {
	case foreignKeyViolation:
		return fmt.Errorf("%w: %w", store.ErrNotFound, err)
	case uniqueViolation:
		return fmt.Errorf("%w: %w", store.ErrConflict, err)
	}
	return err
}
