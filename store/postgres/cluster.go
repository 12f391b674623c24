package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/store"
)

// Turn locks are session-level advisory locks, held on a connection of a
// pool of their own for as long as the turn runs. A session-level lock
// rather than a row lock or a lease: it needs no heartbeat, and a replica
// that dies (or whose connection the server drops) frees it at once with
// the connection, so no dead replica holds a session. The pool is separate
// so that turns holding locks never starve the store's own statements.
const (
	// lockClass is the first key of every turn lock ("WT"), so the locks
	// cannot meet other users of advisory locks on the database (the
	// migrations lock by a hash of the schema, with the one-key form).
	lockClass = 0x5754
	// maxLockConns bounds the turns that may run at once in one replica;
	// a turn past it waits for a free connection.
	maxLockConns = 64
	// lockReask is how often a turn waiting for a session held elsewhere
	// asks again that the running turn be interrupted.
	lockReask = time.Second
)

// lockPool returns the pool of the turn locks, made on first use.
func (s *Store) lockPool(ctx context.Context) (*pgxpool.Pool, error) {
	s.lockMu.Lock()
	defer s.lockMu.Unlock()
	if s.locks != nil {
		return s.locks, nil
	}
	cfg := s.p.Config().Copy()
	cfg.MaxConns, cfg.MinConns = maxLockConns, 0
	p, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("opening the turn-lock pool: %w", err)
	}
	s.locks = p
	return p, nil
}

// lockKey is the session's second key: its id, wrapped to 32 bits. Two
// sessions whose ids differ by a multiple of 2^32 share a lock, which
// serializes them needlessly but never lets one session's turns overlap.
func lockKey(sessionID int64) int32 { return int32(uint32(sessionID)) }

// LockSession takes the session's turn lock.
func (s *Store) LockSession(ctx context.Context, sessionID int64, busy func()) (func(), error) {
	pool, err := s.lockPool(ctx)
	if err != nil {
		return nil, err
	}
	c, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("locking session %d: %w", sessionID, err)
	}
	key := lockKey(sessionID)
	// Try, and while another replica holds the lock, ask it again and
	// again to interrupt its turn (a notice sent while its listener was
	// reconnecting is lost) and try again a little later.
	var asked time.Time
	for tries := 0; ; tries++ {
		var got bool
		if err := c.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, lockClass, key).Scan(&got); err != nil {
			c.Release()
			return nil, fmt.Errorf("locking session %d: %w", sessionID, err)
		}
		if got {
			break
		}
		if busy != nil && time.Since(asked) >= lockReask {
			busy()
			asked = time.Now()
		}
		t := time.NewTimer(clock.Backoff(5*time.Millisecond, 100*time.Millisecond, tries))
		select {
		case <-ctx.Done():
			t.Stop()
			c.Release()
			return nil, fmt.Errorf("locking session %d: %w", sessionID, ctx.Err())
		case <-t.C:
		}
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var freed bool
		if err := c.QueryRow(ctx, `SELECT pg_advisory_unlock($1, $2)`, lockClass, key).Scan(&freed); err != nil || !freed {
			// Whatever happened, closing the connection frees the lock.
			_ = c.Conn().Close(context.Background())
		}
		c.Release()
	}, nil
}

// Notify sends a notice to every replica, tagged with this store's token
// so that its own listener passes over it.
func (s *Store) Notify(ctx context.Context, channel, payload string) error {
	return s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, payload+" "+s.token)
		return err
	})
}

// Listen listens for notices on a connection of its own, and listens again
// after a failure, waiting longer each time (at most 10 s).
func (s *Store) Listen(ctx context.Context, fn func(channel, payload string)) error {
	for failures := 0; ; failures++ {
		err := s.listen(ctx, fn)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil {
			failures = 0
		}
		t := time.NewTimer(clock.Backoff(100*time.Millisecond, 10*time.Second, failures))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

func (s *Store) listen(ctx context.Context, fn func(channel, payload string)) error {
	pool, err := s.lockPool(ctx)
	if err != nil {
		return err
	}
	c, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer func() {
		// A connection that listened is not handed to a turn.
		_ = c.Conn().Close(context.Background())
		c.Release()
	}()
	for _, ch := range store.Channels {
		if _, err := c.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			return err
		}
	}
	for {
		n, err := c.Conn().WaitForNotification(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil
			}
			return err
		}
		payload, from, _ := strings.Cut(n.Payload, " ")
		if from != s.token {
			fn(n.Channel, payload)
		}
	}
}
