// Package server is `wetel serve`: the GraphQL API, Server-Sent Events,
// health and metrics over one store, with the turn service running the
// conversations.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/events"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all" // every node type, in node.Default
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/postgres"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/turn"
)

// Config is how `wetel serve` runs; the zero value of each field is its
// default.
type Config struct {
	// Addr is where to listen; default 127.0.0.1:8080.
	Addr string
	// DataDir holds the embedded SQLite file; default ./wetel-data.
	DataDir string
	// DatabaseURL, when set (postgres://…), uses PostgreSQL instead.
	DatabaseURL string
	// BootstrapKey, when set, is the first workspace's OWNER key instead
	// of a generated one that is printed once.
	BootstrapKey string
	// ShutdownTimeout bounds how long turns in flight may finish after a
	// stop is asked for; default 30s.
	ShutdownTimeout time.Duration
	// MaxBodyBytes bounds a request body; default 10 MB (a graph document
	// may be 8 MB).
	MaxBodyBytes int64
	// AllowHosts opens internal services to outbound calls: hosts and
	// CIDRs, comma-separated (--allow-host, WETEL_OUTBOUND_ALLOW).
	AllowHosts string
	// Registry is the node types; default node.Default.
	Registry *node.Registry
	Logger   *slog.Logger
	// Out receives what the operator must see once (the bootstrap key).
	Out io.Writer
}

// Server is one `wetel serve` process.
type Server struct {
	cfg      Config
	log      *slog.Logger
	store    store.Store
	turns    *turn.Service
	hub      *events.Hub
	auth     *authenticator
	metrics  *metrics
	callouts *callouts
	handler  http.Handler
	closing  chan struct{} // closed when shutdown starts: subscriptions end
}

// New opens the store, recovers runs a stopped process left RUNNING, sets
// up a first start, and builds the handlers.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:8080"
	}
	if cfg.DataDir == "" {
		cfg.DataDir = "wetel-data"
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = 30 * time.Second
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 10 << 20
	}
	if cfg.Registry == nil {
		cfg.Registry = node.Default
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	if cfg.BootstrapKey != "" && len(cfg.BootstrapKey) < MinKeyLen {
		return nil, fmt.Errorf("WETEL_BOOTSTRAP_API_KEY: must be at least %d characters", MinKeyLen)
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Logger, store: st, metrics: newMetrics(), closing: make(chan struct{})}
	if err := s.setup(ctx); err != nil {
		_ = st.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) setup(ctx context.Context) error {
	n, err := s.store.RecoverRuns(ctx, "the server stopped during this run")
	if err != nil {
		return fmt.Errorf("recovering runs: %w", err)
	}
	if n > 0 {
		s.log.WarnContext(ctx, "runs left RUNNING by a stopped server were failed", "runs", n)
	}
	key, err := s.bootstrap(ctx)
	if err != nil {
		return err
	}
	if key != "" {
		fmt.Fprintf(s.cfg.Out, "First start: created the Demo workspace, a Help desk agent and its workflow.\n"+
			"OWNER API key (shown once, keep it safe):\n\n    %s\n\nDashboard: %s (sign in with this key)\n\n", key, dashboardURL(s.cfg.Addr))
	}
	eng, err := engine.New(engine.Options{})
	if err != nil {
		return err
	}
	if err := s.setupCallouts(); err != nil {
		return err
	}
	s.hub = events.NewHub(events.Options{Log: eventLog{s}, Logger: s.log})
	s.turns = &turn.Service{Store: s.store, Engine: eng, Registry: s.cfg.Registry, Observer: s.live, ServicesFor: s.callouts.services}
	s.registerGauges()
	s.auth = newAuthenticator(s.store)
	s.handler = s.routes()
	return nil
}

func openStore(ctx context.Context, cfg Config) (store.Store, error) {
	if cfg.DatabaseURL != "" {
		if !strings.HasPrefix(cfg.DatabaseURL, "postgres://") && !strings.HasPrefix(cfg.DatabaseURL, "postgresql://") {
			return nil, errors.New("--database: must be a postgres:// URL")
		}
		return postgres.Open(ctx, cfg.DatabaseURL)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("--data: %w", err)
	}
	return sqlite.Open(filepath.Join(cfg.DataDir, "wetel.db"), sqlite.Options{})
}

// Handler is every route, for tests that serve it themselves.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve serves on ln until ctx ends, then shuts down gracefully: it stops
// accepting, ends subscriptions, lets requests in flight (turns) finish up
// to the shutdown timeout, flushes events and closes the store.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s.handler, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelWarn)}
	srv.RegisterOnShutdown(func() { close(s.closing) })
	dctx, stopDelivery := context.WithCancel(context.Background())
	delivered := make(chan struct{})
	go func() {
		pruned := make(chan struct{})
		go func() { s.pruneEvents(dctx); close(pruned) }()
		s.deliver(dctx)
		<-pruned
		close(delivered)
	}()
	defer func() { stopDelivery(); <-delivered }()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	s.log.InfoContext(ctx, "serving", "addr", ln.Addr().String())
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing turns in flight", "timeout", s.cfg.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	shutErr := srv.Shutdown(sctx)
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	return errors.Join(serveErr, shutErr, s.Close(sctx))
}

// ListenAndServe listens on the configured address and serves until ctx ends.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Close flushes events and closes the store.
func (s *Server) Close(ctx context.Context) error {
	var errs []error
	if s.hub != nil {
		errs = append(errs, s.hub.Close(ctx))
	}
	if s.callouts != nil {
		errs = append(errs, s.callouts.close())
	}
	return errors.Join(append(errs, s.store.Close())...)
}

// setupCallouts builds what runs call out with: the SSRF-guarded client
// with the operator's allowlist, and the key that seals credentials
// (WETEL_SECRET_KEY, else one generated in the data folder).
func (s *Server) setupCallouts() error {
	allow, err := outbound.ParseAllowlist(s.cfg.AllowHosts)
	if err != nil {
		return fmt.Errorf("--allow-host: %w", err)
	}
	hc, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		return err
	}
	if s.cfg.DatabaseURL != "" && os.Getenv(secrets.EnvKey) == "" {
		s.log.Warn("WETEL_SECRET_KEY is not set: credentials are sealed with a key in the data folder, which other replicas do not share")
	}
	if err := os.MkdirAll(s.cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("--data: %w", err)
	}
	box, err := secrets.LoadKey(s.cfg.DataDir, os.Getenv)
	if err != nil {
		return err
	}
	s.callouts = newCallouts(s.store, box, hc)
	return nil
}
