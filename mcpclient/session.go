package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// conn is one registered connector: its settings, its cached tool list and
// at most one live session.
type conn struct {
	pool    *Pool
	c       Connector
	secrets []string

	// cat is the tool list cached at registration; nil until a listing
	// has succeeded.
	cat atomic.Pointer[catalog]

	// dialing admits one connect or listing at a time; a channel rather
	// than a mutex so that waiting for it respects the caller's context.
	dialing chan struct{}

	mu     sync.Mutex
	cur    *live
	closed bool
}

// live is one connected session, with the process it runs for stdio.
type live struct {
	sess *mcp.ClientSession
	cmd  *exec.Cmd
	// dropped is closed when the pool lets go of the session; its watcher
	// then closes it, so that no caller waits for a server to stop.
	dropped  chan struct{}
	dropOnce sync.Once
}

func newLive(sess *mcp.ClientSession, cmd *exec.Cmd) *live {
	return &live{sess: sess, cmd: cmd, dropped: make(chan struct{})}
}

// drop asks the watcher to close the session. Safe to call more than once.
func (l *live) drop() { l.dropOnce.Do(func() { close(l.dropped) }) }

// close ends the session and, for stdio, the whole process group. Only
// the session's watcher calls it, or dial before there is a watcher.
func (l *live) close() {
	_ = l.sess.Close()
	killProcessGroup(l.cmd)
}

func newConn(p *Pool, c Connector) *conn {
	return &conn{pool: p, c: c, secrets: c.secrets(), dialing: make(chan struct{}, 1)}
}

// current returns the live session, if any.
func (c *conn) current() *live {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cur
}

// acquire waits for the right to connect or list, within ctx.
func (c *conn) acquire(ctx context.Context) error {
	select {
	case c.dialing <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *conn) release() { <-c.dialing }

// session returns the live session, connecting first when there is none:
// sessions are made lazily, and again after one was dropped.
func (c *conn) session(ctx context.Context) (*live, error) {
	if l := c.current(); l != nil {
		return l, nil
	}
	if err := c.acquire(ctx); err != nil {
		return nil, c.connectFailure(ctx, err, 0)
	}
	defer c.release()
	if l := c.current(); l != nil {
		return l, nil // another caller connected while this one waited
	}
	return c.dial(ctx)
}

// dial connects a new session and makes it current. The caller holds
// dialing.
func (c *conn) dial(ctx context.Context) (*live, error) {
	l, status, err := c.connect(ctx)
	if err != nil {
		return nil, c.connectFailure(ctx, err, status)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		l.close()
		return nil, c.closedError()
	}
	c.cur = l
	c.pool.watchers.Add(1)
	c.mu.Unlock()
	go c.watch(l)
	c.pool.log.InfoContext(ctx, "mcp connector connected",
		"connector", c.c.ID, "name", c.c.Name, "transport", c.c.Transport)
	return l, nil
}

// connect starts the transport and runs the MCP handshake. It returns the
// HTTP status of a failed answer, 0 when there was none.
func (c *conn) connect(ctx context.Context) (*live, int, error) {
	ctx, rec := withStatus(ctx)
	if c.c.Transport == TransportHTTP {
		sess, err := c.pool.client.Connect(ctx, httpTransport(c.c, c.pool.http), nil)
		if err != nil {
			return nil, rec.get(), err
		}
		return newLive(sess, nil), 0, nil
	}
	t, tail := stdioTransport(c.c)
	// Respect ctx: a server that hangs in the handshake is killed when
	// ctx ends, not a grace period later.
	stop := context.AfterFunc(ctx, t.kill)
	sess, err := c.pool.client.Connect(ctx, t, nil)
	if !stop() && err == nil {
		// ctx ended just as the handshake finished, and the kill is on its
		// way: the session is lost.
		_ = sess.Close()
		err = ctx.Err()
	}
	if err != nil {
		// The SDK closes what it started, but not a wrapper's children.
		t.kill()
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w: %w", ctx.Err(), err)
		}
		if out := tail.String(); out != "" {
			err = fmt.Errorf("%w; stderr: %s", err, out)
		}
		return nil, 0, err
	}
	return newLive(sess, t.inner.Command), 0, nil
}

// watch closes the session once it ends by itself (the process exited,
// the HTTP connection failed) or is dropped. A session that ended by
// itself is dropped at once, so that the next call connects again instead
// of finding out by failing. Pool.Close waits for every watcher, so no
// server outlives the pool.
func (c *conn) watch(l *live) {
	defer c.pool.watchers.Done()
	ended := make(chan error, 1)
	go func() { ended <- l.sess.Wait() }()
	select {
	case err := <-ended:
		if c.forget(l) {
			c.pool.log.Warn("mcp connector session ended; the next call reconnects",
				"connector", c.c.ID, "name", c.c.Name, "error", c.redact(err))
		}
		l.close()
	case <-l.dropped:
		l.close()
		<-ended
	}
}

// forget drops l if it is still the current session. It reports whether
// l was current.
func (c *conn) forget(l *live) bool {
	c.mu.Lock()
	was := c.cur == l
	if was {
		c.cur = nil
	}
	c.mu.Unlock()
	l.drop()
	return was
}

// close ends the connector for good: its session, and any later connect.
func (c *conn) close() {
	c.mu.Lock()
	c.closed = true
	l := c.cur
	c.cur = nil
	c.mu.Unlock()
	if l != nil {
		l.drop()
	}
}

// closedError is what calls on a closed pool or a replaced connector get.
// Nothing was sent.
func (c *conn) closedError() error {
	return &failure.Error{Message: c.c.label(), Err: ErrClosed}
}
