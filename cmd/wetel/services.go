package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/mcpclient"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/workspace"
)

// outboxDrain bounds how long an offline command waits at exit for async
// webhooks still being sent: a little more than the longest timeoutMs.
const outboxDrain = 35 * time.Second

// registerTimeout bounds connecting to one MCP connector at start.
const registerTimeout = 30 * time.Second

// offlineServices are what the nodes of an offline run may call: the guarded
// HTTP client, the workspace file's custom actions and MCP connectors, an
// outbox that sends async webhooks from this process, and a PDF renderer
// with a folder for artifacts (offlineArtifacts).
type offlineServices struct {
	svc    *node.Services
	client *outbound.Client
	outbox *callout.MemoryOutbox
	pool   *mcpclient.Pool
	log    *slog.Logger // stderr, warnings and up
}

// parseAllow builds the operator's allowlist from the --allow-host flags
// and WETEL_OUTBOUND_ALLOW; the error names the bad entry and where it was.
func parseAllow(flags []string) (outbound.Allowlist, error) {
	if _, err := outbound.ParseAllowlist(strings.Join(flags, ",")); err != nil {
		return outbound.Allowlist{}, fmt.Errorf("--allow-host: %w", err)
	}
	env := os.Getenv(outbound.EnvAllow)
	if _, err := outbound.ParseAllowlist(env); err != nil {
		return outbound.Allowlist{}, fmt.Errorf("%s: %w", outbound.EnvAllow, err)
	}
	return outbound.ParseAllowlist(strings.Join(append(append([]string(nil), flags...), env), ","))
}

// newOfflineServices registers ws's custom actions (ws may be nil) and
// connects to its MCP connectors, listing their tools once. A connector
// that cannot be reached is reported on stderr and tried again when a tool
// node calls it; one whose settings cannot work is an error.
func newOfflineServices(ctx context.Context, ws *workspace.File, allow outbound.Allowlist, stderr io.Writer) (*offlineServices, error) {
	client, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := &offlineServices{client: client, outbox: callout.NewMemoryOutbox(client, log), log: log}
	s.svc = node.NewServices(append(offlineArtifacts(stderr), callout.HTTPKey.With(client), callout.OutboxKey.With(s.outbox))...)
	if err := provideModels(s.svc, ws, client, stderr); err != nil {
		s.Close()
		return nil, err
	}
	if ws == nil {
		return s, nil
	}
	actions, err := actionList(ws.CustomActions)
	if err != nil {
		s.Close()
		return nil, err
	}
	callout.ActionsKey.Provide(s.svc, actions)
	if len(ws.McpConnectors) > 0 {
		s.pool = mcpclient.NewPool(mcpclient.Options{HTTPClient: client.HTTP(), Logger: log})
		callout.ToolsKey.Provide(s.svc, callout.PoolTools{Pool: s.pool})
		if err := registerConnectors(ctx, s.pool, ws.McpConnectors, stderr); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// actionList turns the file's custom actions into the run's ActionSource;
// headers arrive with ${NAME} already read from the environment.
func actionList(list []workspace.CustomAction) (callout.ActionList, error) {
	out := make(callout.ActionList, len(list))
	for i, a := range list {
		if _, err := callout.ParseURLTemplate(a.URL); err != nil {
			return nil, fmt.Errorf("workspace: customActions[%d] (%s): url: %w", i, a.Name, err)
		}
		out[int64(a.ID)] = callout.CustomAction{ID: int64(a.ID), Name: a.Name, Method: strings.ToUpper(a.Method),
			URL: a.URL, Headers: a.Headers, TimeoutMs: a.TimeoutMs}
	}
	return out, nil
}

func registerConnectors(ctx context.Context, pool *mcpclient.Pool, list []workspace.McpConnector, stderr io.Writer) error {
	for i, c := range list {
		conn := mcpclient.Connector{ID: c.ID, Name: c.Name, Transport: c.Transport, Command: c.Command, URL: c.URL}
		// A connector's credentials are its server's environment over
		// stdio, and request headers over HTTP.
		if c.Transport == mcpclient.TransportStdio {
			conn.Env = c.Credentials
		} else {
			conn.Headers = c.Credentials
		}
		rctx, cancel := context.WithTimeout(ctx, registerTimeout)
		_, err := pool.Register(rctx, conn)
		cancel()
		if errors.Is(err, mcpclient.ErrInvalidConnector) {
			return fmt.Errorf("workspace: mcpConnectors[%d] (%s): %w", i, c.Name, err)
		}
		if err != nil {
			fmt.Fprintf(stderr, "warning: MCP connector %d (%s) is not reachable now, its tool nodes will try again: %v\n", c.ID, c.Name, err)
		}
	}
	return nil
}

// Close waits for async webhooks still being sent (a bounded time), then
// stops the MCP servers and closes idle connections.
func (s *offlineServices) Close() {
	// wetel test's services hold no client or outbox: nothing may leave
	// the process.
	if s.outbox != nil {
		ctx, cancel := context.WithTimeout(context.Background(), outboxDrain)
		defer cancel()
		_ = s.outbox.Close(ctx)
	}
	if s.pool != nil {
		_ = s.pool.Close()
	}
	if s.client != nil {
		s.client.CloseIdleConnections()
	}
}

// provideModels gives the runs a model client: the workspace file's
// modelProviders, else the quick start's OPENAI_BASE_URL / OPENAI_API_KEY /
// WETEL_DEFAULT_MODEL, else none (an llm node then fails saying so, unless
// it is mocked).
func provideModels(svc *node.Services, ws *workspace.File, client *outbound.Client, stderr io.Writer) error {
	var cfg models.Config
	if ws != nil && len(ws.ModelProviders) > 0 {
		cfg = ws.Models()
	} else {
		env, ok, err := models.FromEnv(os.Getenv)
		if err != nil {
			fmt.Fprintf(stderr, "warning: no model from the environment: %v\n", err)
			return nil
		}
		if !ok {
			return nil
		}
		cfg = env
	}
	c, err := models.New(cfg, client.HTTP())
	if err != nil {
		return fmt.Errorf("workspace: %w", err)
	}
	models.ClientKey.Provide(svc, c)
	return nil
}
