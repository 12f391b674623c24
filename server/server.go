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
	"sync/atomic"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/events"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all" // every node type, in node.Default
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/postgres"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/telemetry"
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
	// CIDRs, each with an optional :port, comma-separated (--allow-host,
	// WETEL_OUTBOUND_ALLOW); see outbound.ParseAllowlist.
	AllowHosts string
	// RateLimits bound requests per key, workspace and source; nil is
	// DefaultRateLimits, and a zero rate turns that limit off.
	RateLimits *RateLimits
	// AnonymousIntrospection lets callers without a key read the schema
	// by introspection (--anonymous-introspection,
	// WETEL_ANONYMOUS_INTROSPECTION); off by default, so a scanner learns
	// nothing of the API without a key.
	AnonymousIntrospection bool
	// Registry is the node types; default node.Default.
	Registry *node.Registry
	// Clock tells the time and paces the background work (async webhook
	// delivery, event pruning, the event hub); default clock.Real.
	Clock clock.Clock
	// Tracing, when set, makes OpenTelemetry spans of turns and nodes and
	// sends the trace context on outbound calls; nil is off (see
	// telemetry.FromEnv). Its owner shuts it down.
	Tracing *telemetry.Tracing
	// Getenv reads the environment (the quick start's OPENAI_BASE_URL,
	// OPENAI_API_KEY and WETEL_DEFAULT_MODEL); default os.Getenv.
	Getenv func(string) string
	Logger *slog.Logger
	// Out receives what the operator must see once (the bootstrap key).
	Out io.Writer
}

// Server is one `wetel serve` process.
type Server struct {
	cfg      Config
	log      *slog.Logger
	clock    clock.Clock
	store    store.Store
	turns    *turn.Service
	hub      *events.Hub
	auth     *authenticator
	limits   *limiter
	metrics  *metrics
	callouts *callouts
	handler  http.Handler
	closing  chan struct{} // closed when shutdown starts: subscriptions end
	// validations counts the GraphQL documents validated: a document over
	// the document limits must never reach validation.
	validations atomic.Int64
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
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
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
	s := &Server{cfg: cfg, log: cfg.Logger, clock: cfg.Clock, store: st, metrics: newMetrics(), closing: make(chan struct{})}
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
		printFirstStart(s.cfg.Out, s.cfg.Addr, key)
	}
	eng, err := engine.New(engine.Options{Place: node.OnServer, Clock: s.clock, Logger: s.log})
	if err != nil {
		return err
	}
	if err := s.setupCallouts(ctx); err != nil {
		return err
	}
	s.hub = events.NewHub(events.Options{Log: eventLog{s}, Logger: s.log, Clock: s.clock})
	s.turns = &turn.Service{Store: s.store, Engine: eng, Registry: s.cfg.Registry, Clock: s.clock, Observer: s.live, ServicesFor: s.callouts.services,
		Tracer: s.cfg.Tracing.Turns()}
	s.callouts.turns = s.turns
	s.registerGauges()
	s.auth = newAuthenticator(s.store)
	limits := DefaultRateLimits()
	if s.cfg.RateLimits != nil {
		limits = *s.cfg.RateLimits
	}
	s.limits = newLimiter(limits)
	s.limits.now = s.clock.Now
	s.handler = s.cfg.Tracing.Handler(s.routes())
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
		pruned, listened := make(chan struct{}), make(chan struct{})
		go func() { s.pruneEvents(dctx); close(pruned) }()
		// What other replicas of a cluster tell this one.
		go func() { s.listenCluster(dctx); close(listened) }()
		s.deliver(dctx)
		<-pruned
		<-listened
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
	// The background work ends before the store closes: the interrupt
	// listener holds one of the store's connections until it stops.
	stopDelivery()
	<-delivered
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
func (s *Server) setupCallouts(ctx context.Context) error {
	allow, err := outbound.ParseAllowlist(s.cfg.AllowHosts)
	if err != nil {
		return fmt.Errorf("--allow-host: %w", err)
	}
	hc, err := outbound.New(outbound.Config{Allow: allow, OnRefuse: s.logRefused, Propagate: s.cfg.Tracing.Propagate()})
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
	if err := s.checkSecretKey(ctx, box); err != nil {
		return err
	}
	s.callouts = newCallouts(s.store, box, hc)
	s.callouts.clock = s.clock
	return s.setupModels()
}
