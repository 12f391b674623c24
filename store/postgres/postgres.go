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
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/wetel/wetel/store"
)

// defaultMaxConns is the pool size when the URL does not set
// pool_max_conns.
const defaultMaxConns = 8

// Store is a store.Store on a PostgreSQL database. It is safe for
// concurrent use.
type Store struct {
	p *pgxpool.Pool

	lockMu sync.Mutex
	locks  *pgxpool.Pool // turn locks (cluster.go), made on first use
	// token tells this store's interrupt notices from other replicas'.
	token string
}

// Open connects to the database at url and migrates its schema to the
// newest version. Settings the server knows, such as search_path, may be
// given as URL parameters and apply to every connection; pgxpool's
// pool_ parameters tune the pool, and pool_max_conns sets its size
// (default 8).
func Open(ctx context.Context, url string) (*Store, error) {
	s, err := open(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("opening postgres: %w", err)
	}
	return s, nil
}

func open(ctx context.Context, rawURL string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, err
	}
	// ParseConfig takes the pool_ parameters out of the connection
	// settings, so whether the URL sized the pool is asked of a plain parse.
	plain, err := pgconn.ParseConfig(rawURL)
	if err != nil {
		return nil, err
	}
	if _, set := plain.RuntimeParams["pool_max_conns"]; !set {
		cfg.MaxConns = defaultMaxConns
	}
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var t [8]byte
	_, _ = rand.Read(t[:])
	s := &Store{p: p, token: hex.EncodeToString(t[:])}
	if err := s.with(ctx, applyMigrations); err != nil {
		p.Close()
		return nil, err
	}
	return s, nil
}

// Close waits for calls in progress and closes every connection. Closing
// twice is harmless.
func (s *Store) Close() error {
	s.lockMu.Lock()
	if s.locks != nil {
		s.locks.Close()
	}
	s.lockMu.Unlock()
	s.p.Close()
	return nil
}

// with runs fn on a pooled connection. The pool closes, rather than
// reuses, a connection that fn broke or left inside a transaction; each
// connection keeps the statements pgx prepared on it.
func (s *Store) with(ctx context.Context, fn func(context.Context, *pgx.Conn) error) error {
	c, err := s.p.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	return fn(ctx, c.Conn())
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
