package sqlite

import (
	"context"
	"errors"
)

// errClosed is returned by every call after Close.
var errClosed = errors.New("sqlite store is closed")

// pool hands out a fixed set of connections, one goroutine each at a time.
type pool struct {
	free   chan *conn
	size   int
	closed chan struct{}
}

func newPool(conns []*conn) *pool {
	p := &pool{free: make(chan *conn, len(conns)), size: len(conns), closed: make(chan struct{})}
	for _, c := range conns {
		p.free <- c
	}
	return p
}

// get waits for a free connection, for as long as ctx allows.
func (p *pool) get(ctx context.Context) (*conn, error) {
	select {
	case <-p.closed:
		return nil, errClosed
	default:
	}
	select {
	case c := <-p.free:
		return c, nil
	case <-p.closed:
		return nil, errClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// tryGet returns a free connection if there is one at once.
func (p *pool) tryGet() *conn {
	select {
	case <-p.closed:
		return nil
	default:
	}
	select {
	case c := <-p.free:
		return c
	default:
		return nil
	}
}

func (p *pool) put(c *conn) { p.free <- c }

// close refuses new gets, waits for every connection to come back, and
// closes them all.
func (p *pool) close() error {
	close(p.closed)
	var errs []error
	for range p.size {
		errs = append(errs, (<-p.free).close())
	}
	return errors.Join(errs...)
}
