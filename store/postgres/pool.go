package postgres

import (
	"context"
	"errors"
	"sync"

	"github.com/jackc/pgx/v5"
)

// errClosed is returned by every call after Close.
var errClosed = errors.New("postgres store is closed")

// pool keeps up to max connections, opened on demand and reused. (pgxpool
// would do, but needs a module this build does not carry; this is the part
// of it the store uses.)
type pool struct {
	cfg    *pgx.ConnConfig
	idle   chan *pgx.Conn
	tokens chan struct{} // one per open connection, so at most max
	open   sync.WaitGroup

	mu     sync.Mutex // orders put against close
	closed bool
	done   chan struct{}
}

func newPool(cfg *pgx.ConnConfig, max int) *pool {
	return &pool{cfg: cfg, idle: make(chan *pgx.Conn, max), tokens: make(chan struct{}, max),
		done: make(chan struct{})}
}

// get returns an idle connection, or opens one while fewer than max are
// open, or waits for one to come back, for as long as ctx allows.
func (p *pool) get(ctx context.Context) (*pgx.Conn, error) {
	select {
	case c := <-p.idle:
		return c, nil
	case <-p.done:
		return nil, errClosed
	default:
	}
	select {
	case c := <-p.idle:
		return c, nil
	case p.tokens <- struct{}{}:
		p.open.Add(1)
		c, err := pgx.ConnectConfig(ctx, p.cfg)
		if err != nil {
			p.discard(nil)
			return nil, err
		}
		return c, nil
	case <-p.done:
		return nil, errClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put returns c for reuse, unless it broke, was left inside a transaction
// by a failed call, or the pool is closed: then it is closed.
func (p *pool) put(c *pgx.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || c.IsClosed() || c.PgConn().TxStatus() != 'I' {
		p.discard(c)
		return
	}
	p.idle <- c
}

func (p *pool) discard(c *pgx.Conn) {
	if c != nil {
		_ = c.Close(context.Background())
	}
	<-p.tokens
	p.open.Done()
}

// close refuses new calls, closes the idle connections, and waits for the
// busy ones to come back and be closed.
func (p *pool) close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.done)
	for len(p.idle) > 0 {
		p.discard(<-p.idle)
	}
	p.mu.Unlock()
	p.open.Wait()
}
