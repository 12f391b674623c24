package server

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

// modelConfigTTL bounds how long a replica keeps a workspace's model
// client after another replica changed its providers (this replica's own
// changes take effect at once).
const modelConfigTTL = 30 * time.Second

// modelClients are the workspaces' model clients, built from their stored
// providers (keys opened with the box) or, for a workspace with none, the
// server's own provider from the environment.
type modelClients struct {
	store   store.Store
	box     *secrets.Box
	http    *outbound.Client
	env     *models.Client // nil when the environment names no provider
	envCfg  *models.Config
	observe func(models.Response, error)

	mu   sync.Mutex
	byWS map[int64]modelEntry
}

type modelEntry struct {
	client *models.Client // nil: the environment's, or none
	at     time.Time
}

func newModelClients(st store.Store, box *secrets.Box, hc *outbound.Client, env *models.Config, observe func(models.Response, error)) (*modelClients, error) {
	m := &modelClients{store: st, box: box, http: hc, envCfg: env, observe: observe, byWS: map[int64]modelEntry{}}
	if env != nil {
		c, err := models.New(*env, hc.HTTP())
		if err != nil {
			return nil, err
		}
		c.Observe = observe
		m.env = c
	}
	return m, nil
}

// client is ws's model client; nil with no error when ws has no provider
// and the environment names none.
func (m *modelClients) client(ctx context.Context, ws int64) (*models.Client, error) {
	m.mu.Lock()
	e, ok := m.byWS[ws]
	m.mu.Unlock()
	if ok && time.Since(e.at) < modelConfigTTL {
		return m.orEnv(e.client), nil
	}
	sc, err := m.store.ModelConfig(ctx, ws)
	if err != nil {
		return nil, err
	}
	var c *models.Client
	if len(sc.Providers) > 0 {
		cfg, err := gql.OpenModelConfig(m.box, sc)
		if err != nil {
			return nil, err
		}
		if c, err = models.New(cfg, m.http.HTTP(), models.Options{Usage: storeUsage{m.store, ws}}); err != nil {
			return nil, err
		}
		c.Observe = m.observe
	}
	m.mu.Lock()
	m.byWS[ws] = modelEntry{client: c, at: time.Now()}
	m.mu.Unlock()
	return m.orEnv(c), nil
}

func (m *modelClients) orEnv(c *models.Client) *models.Client {
	if c == nil {
		return m.env
	}
	return c
}

// changed forgets ws's client, so the next call reads its providers again.
func (m *modelClients) changed(ws int64) {
	m.mu.Lock()
	delete(m.byWS, ws)
	m.mu.Unlock()
}

// storeUsage is a workspace's model usage in the store, shared by the
// replicas of a cluster.
type storeUsage struct {
	store store.Store
	ws    int64
}

func (u storeUsage) Used(ctx context.Context, day string) (int64, float64, error) {
	return u.store.ModelUsage(ctx, u.ws, day)
}

func (u storeUsage) Add(ctx context.Context, day string, tokens int64, cost float64) error {
	return u.store.AddModelUsage(ctx, u.ws, day, tokens, cost)
}

// wsModels is a workspace's models.Chatter.
type wsModels struct {
	m  *modelClients
	ws int64
}

var errNoModels = &failure.Error{Code: failure.Unknown, Message: "no language model is configured for this workspace: add one with createModelProvider " +
	"(or modelProviders in wetel apply's workspace file), or start the server with OPENAI_BASE_URL and WETEL_DEFAULT_MODEL"}

// Chat sends r with the workspace's current client.
func (w wsModels) Chat(ctx context.Context, r models.Request) (models.Response, error) {
	c, err := w.m.client(ctx, w.ws)
	if err != nil {
		return models.Response{Model: r.Model}, &failure.Error{Code: failure.Unknown, Message: "reading the workspace's model providers", Err: err}
	}
	if c == nil {
		return models.Response{Model: r.Model}, errNoModels
	}
	return c.Chat(ctx, r)
}

// modelObserver registers the model metrics and returns what counts them.
func (m *metrics) modelObserver() func(models.Response, error) {
	tokens := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wetel_model_tokens_total",
		Help: "Tokens of model calls, by model, provider and direction (in: prompt, out: reply)."}, []string{"model", "provider", "direction"})
	calls := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wetel_model_calls_total",
		Help: "Model calls, by model and outcome (ok, or the failure class once every provider gave up)."}, []string{"model", "outcome"})
	fallbacks := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wetel_model_fallbacks_total",
		Help: "Providers that could not answer and gave way to the next, by provider and failure class."}, []string{"provider", "class"})
	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "wetel_model_latency_seconds",
		Help:    "Time the answering provider took, streaming included, by model and provider.",
		Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120}}, []string{"model", "provider"})
	m.reg.MustRegister(tokens, calls, fallbacks, latency)
	return func(r models.Response, err error) {
		for _, f := range r.Fallbacks {
			fallbacks.WithLabelValues(f.Provider, f.ErrorClass).Inc()
		}
		if err != nil {
			calls.WithLabelValues(r.Model, string(failure.Classify(err))).Inc()
			return
		}
		calls.WithLabelValues(r.Model, "ok").Inc()
		tokens.WithLabelValues(r.Model, r.Provider, "in").Add(float64(r.TokensIn))
		tokens.WithLabelValues(r.Model, r.Provider, "out").Add(float64(r.TokensOut))
		latency.WithLabelValues(r.Model, r.Provider).Observe(r.Latency.Seconds())
	}
}

// setupModels builds the workspaces' model clients, with the server's own
// provider when the environment names one.
func (s *Server) setupModels() error {
	getenv := s.cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	env, ok, err := models.FromEnv(getenv)
	if err != nil {
		s.log.Warn("no language model from the environment", "err", err)
	}
	var envCfg *models.Config
	if ok {
		envCfg = &env
		s.log.Info("language model from the environment", "baseUrl", env.Providers[0].BaseURL, "model", env.DefaultModel)
	}
	mc, err := newModelClients(s.store, s.callouts.box, s.callouts.http, envCfg, s.metrics.modelObserver())
	if err != nil {
		return fmt.Errorf("%s: %w", models.EnvBaseURL, err)
	}
	s.callouts.models = mc
	return nil
}
