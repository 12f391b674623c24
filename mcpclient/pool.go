package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// ErrClosed is wrapped by the errors of a Pool that was closed, and of
// calls on a connector that Register replaced meanwhile.
var ErrClosed = errors.New("MCP client pool is closed")

// ErrNotRegistered is wrapped by the error of a call to a connector id that
// was never registered.
var ErrNotRegistered = errors.New("MCP connector is not registered")

// Options configures a Pool.
type Options struct {
	// HTTPClient carries the Streamable HTTP transport. Pass the engine's
	// SSRF-guarded client; nil means a plain http.Client. Leave its Timeout
	// at zero: each call's context carries the tool node's timeout.
	HTTPClient *http.Client
	// Logger receives connection events, never credentials. Nil discards.
	Logger *slog.Logger
	// ClientName and ClientVersion are sent to servers in the MCP
	// handshake; they default to "wetel" and "dev".
	ClientName, ClientVersion string
}

// Pool keeps one live session per registered connector, connected lazily
// and again after a failure. It is safe for concurrent use.
type Pool struct {
	client *mcp.Client
	http   *http.Client
	log    *slog.Logger

	// watchers counts the goroutines that close sessions (see watch), so
	// that Close returns only when every session is closed.
	watchers sync.WaitGroup

	mu     sync.Mutex
	conns  map[int]*conn
	closed bool
}

// NewPool returns an empty pool.
func NewPool(opts Options) *Pool {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	impl := &mcp.Implementation{Name: opts.ClientName, Version: opts.ClientVersion}
	if impl.Name == "" {
		impl.Name = "wetel"
	}
	if impl.Version == "" {
		impl.Version = "dev"
	}
	// Empty capabilities: the pool only calls tools, and offers servers no
	// roots, sampling or elicitation to ask for.
	client := mcp.NewClient(impl, &mcp.ClientOptions{Logger: log, Capabilities: &mcp.ClientCapabilities{}})
	return &Pool{client: client, http: hc, log: log, conns: make(map[int]*conn)}
}

// Register connects to a connector, lists its tools (every page of
// tools/list) and caches the list: rule "the connector's tool list cached
// at registration" is what Call checks later calls against. It returns
// the tools.
//
// Registering an id again refreshes the cached list; with changed settings
// it replaces the connector and closes its old session. A connector whose
// server cannot be reached is still recorded, and the first Call to it
// completes the registration, so that a server that is down when the
// engine starts does not need registering again. Errors from connecting
// are classified like Call's, with Sent false.
func (p *Pool) Register(ctx context.Context, c Connector) ([]Tool, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	cn, err := p.install(c.clone())
	if err != nil {
		return nil, err
	}
	cat, err := cn.refresh(ctx)
	if err != nil {
		return nil, err
	}
	return cat.toolsCopy(), nil
}

// Restore registers a connector with the tool list cached when it was
// registered earlier (kept by the caller, e.g. in the store), without
// connecting: the first Call connects, and checks its arguments against
// that list, not a fresh one, so drift since the registration is found
// after a restart too.
func (p *Pool) Restore(ctx context.Context, c Connector, tools []Tool) error {
	if err := c.validate(); err != nil {
		return err
	}
	cn, err := p.install(c.clone())
	if err != nil {
		return err
	}
	cn.cat.Store(newCatalog(ctx, p.log, c, tools))
	return nil
}

// install returns the conn for c: the registered one when its settings are
// unchanged, else a new one that replaces it.
func (p *Pool) install(c Connector) (*conn, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, &failure.Error{Message: c.label(), Err: ErrClosed}
	}
	old := p.conns[c.ID]
	if old != nil && reflect.DeepEqual(old.c, c) {
		p.mu.Unlock()
		return old, nil
	}
	cn := newConn(p, c)
	p.conns[c.ID] = cn
	p.mu.Unlock()
	if old != nil {
		old.close()
	}
	return cn, nil
}

// Tools returns the tool list cached for a connector, and false when the
// connector is not registered or its tools were never listed.
func (p *Pool) Tools(id int) ([]Tool, bool) {
	cn := p.lookup(id)
	if cn == nil {
		return nil, false
	}
	cat := cn.cat.Load()
	if cat == nil {
		return nil, false
	}
	return cat.toolsCopy(), true
}

func (p *Pool) lookup(id int) *conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conns[id]
}

// conn returns the registered connector with the id, or the error a call
// to it fails with.
func (p *Pool) conn(id int) (*conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, &failure.Error{Message: fmt.Sprintf("connector %d", id), Err: ErrClosed}
	}
	if cn := p.conns[id]; cn != nil {
		return cn, nil
	}
	return nil, &failure.Error{Message: fmt.Sprintf("connector %d", id), Err: ErrNotRegistered}
}

// Close closes every session and stops every stdio server, and returns
// once they are stopped. Later calls fail with ErrClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	for _, cn := range conns {
		cn.close()
	}
	// The watchers stop the servers side by side; each may take a grace
	// period.
	p.watchers.Wait()
	return nil
}
