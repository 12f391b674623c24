package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/wetel/wetel/artifact"
	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/mcpclient"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/pdfexport"
	"github.com/wetel/wetel/node/subagent"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
)

// callouts are the outside systems the runs of each workspace may call:
// one guarded HTTP client, and per workspace its custom actions (read from
// the store, headers opened with the box), its MCP connectors (one pool
// per workspace, since connector ids are the workspace's own) and the
// durable outbox of async webhooks.
type callouts struct {
	store store.Store
	box   *secrets.Box
	http  *outbound.Client
	clock clock.Clock // stamps queued async webhooks
	// queued wakes a delivery pass in progress when a request is queued.
	queued chan struct{}
	// turns run the child sessions of sub_agent dispatches; set once the
	// turn service exists, before any turn runs.
	turns *turn.Service
	// pdf renders pdf_export's documents, one at a time for the server.
	pdf *pdfexport.Renderer

	models *modelClients

	mu    sync.Mutex
	pools map[int64]*wsPool
	svcs  map[int64]*node.Services
}

// wsPool is a workspace's MCP pool and which of its connectors are loaded.
type wsPool struct {
	pool   *mcpclient.Pool
	mu     sync.Mutex
	loaded map[int64]bool
}

func newCallouts(st store.Store, box *secrets.Box, hc *outbound.Client) *callouts {
	return &callouts{store: st, box: box, http: hc, queued: make(chan struct{}, 1), pdf: pdfexport.NewRenderer(), pools: map[int64]*wsPool{}, svcs: map[int64]*node.Services{}}
}

// services returns the workspace's Services, built once.
func (c *callouts) services(ws int64) *node.Services {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.svcs[ws]; ok {
		return s
	}
	s := node.NewServices(
		callout.HTTPKey.With(c.http),
		callout.ActionsKey.With(wsActions{c, ws}),
		callout.ToolsKey.With(wsTools{c, ws}),
		callout.OutboxKey.With(wsOutbox{c, ws}),
		subagent.DispatcherKey.With(childSessions{c.turns, ws}),
		artifact.StoreKey.With(artifact.ForWorkspace(c.store, ws)),
		pdfexport.RendererKey.With(c.pdf),
		models.ClientKey.With(wsModels{c.models, ws}),
	)
	c.svcs[ws] = s
	return s
}

func (c *callouts) pool(ws int64) *wsPool {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pools[ws]
	if !ok {
		p = &wsPool{pool: mcpclient.NewPool(mcpclient.Options{HTTPClient: c.http.HTTP(), ClientName: "wetel"}), loaded: map[int64]bool{}}
		c.pools[ws] = p
	}
	return p
}

// connect registers a connector (registerMcpConnector), replacing what the
// pool had under its id.
func (c *callouts) connect(ctx context.Context, ws int64, conn mcpclient.Connector) ([]mcpclient.Tool, error) {
	p := c.pool(ws)
	tools, err := p.pool.Register(ctx, conn)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.loaded[int64(conn.ID)] = true
	p.mu.Unlock()
	return tools, nil
}

// disconnect drops the workspace's pool (deleteMcpConnector); the other
// connectors load again on their next call.
func (c *callouts) disconnect(ws, _ int64) {
	c.mu.Lock()
	p := c.pools[ws]
	delete(c.pools, ws)
	c.mu.Unlock()
	if p != nil {
		_ = p.pool.Close()
	}
}

func (c *callouts) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for ws, p := range c.pools {
		errs = append(errs, p.pool.Close())
		delete(c.pools, ws)
	}
	return errors.Join(errs...)
}

type wsActions struct {
	c  *callouts
	ws int64
}

// CustomAction reads the action and opens its headers.
func (a wsActions) CustomAction(ctx context.Context, id int64) (callout.CustomAction, error) {
	sa, err := a.c.store.CustomAction(ctx, a.ws, id)
	if errors.Is(err, store.ErrNotFound) {
		return callout.CustomAction{}, fmt.Errorf("custom action %d: %w", id, callout.ErrNoSuchAction)
	}
	if err != nil {
		return callout.CustomAction{}, err
	}
	headers, err := a.c.box.OpenMap(sa.Headers, gql.ActionAAD(a.ws, id))
	if err != nil {
		return callout.CustomAction{}, fmt.Errorf("custom action %d: opening its headers: %w", id, err)
	}
	return callout.CustomAction{ID: sa.ID, Name: sa.Name, Method: sa.Method, URL: sa.URL, Headers: headers, TimeoutMs: sa.TimeoutMs}, nil
}

type wsTools struct {
	c  *callouts
	ws int64
}

// CallTool loads the connector from the store into the workspace's pool on
// first use, with the tool list stored at its registration, then calls the
// tool.
func (t wsTools) CallTool(ctx context.Context, connectorID int64, tool string, args map[string]any) (mcpclient.Result, error) {
	p := t.c.pool(t.ws)
	p.mu.Lock()
	loaded := p.loaded[connectorID]
	p.mu.Unlock()
	if !loaded {
		sc, err := t.c.store.McpConnector(ctx, t.ws, connectorID)
		if err != nil {
			return mcpclient.Result{}, fmt.Errorf("mcp connector %d: %w", connectorID, err)
		}
		conn, err := gql.MCPConnector(t.c.box, sc)
		if err != nil {
			return mcpclient.Result{}, err
		}
		// Rule: calls are checked against "the connector's tool list
		// cached at registration", which the store kept: a tool that
		// changed since is drift, after a restart too.
		var tools []mcpclient.Tool
		if err := json.Unmarshal(sc.Tools, &tools); err != nil || len(sc.Tools) == 0 {
			_, _ = p.pool.Register(ctx, conn) // no usable copy: list again
		} else if err := p.pool.Restore(ctx, conn, tools); err != nil {
			return mcpclient.Result{}, err
		}
		p.mu.Lock()
		p.loaded[connectorID] = true
		p.mu.Unlock()
	}
	return p.pool.Call(ctx, int(connectorID), tool, args)
}
