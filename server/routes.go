package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"github.com/wetel/wetel/events"
	"github.com/wetel/wetel/server/dashboard"
	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/graphql", s.count("graphql", s.limitBody(requireJSON(s.authenticated(s.graphql())))))
	mux.Handle("GET /api/sessions/{id}/events", s.count("events", s.authenticated(http.HandlerFunc(s.sessionEvents))))
	mux.Handle("GET /api/artifacts/{id}", s.count("artifacts", s.authenticated(http.HandlerFunc(s.artifactContent))))
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	mux.Handle("/", s.count("dashboard", dashboard.Handler(s.cfg.Registry)))
	return mux
}

func (s *Server) graphql() http.Handler {
	res := &gql.Resolver{Store: s.store, Turns: s.turns, Registry: s.cfg.Registry, Hub: s.hub, Logger: s.log,
		Forget: s.forgetKey, Publish: s.publishTurn, Closing: s.closing,
		Box: s.callouts.box, Connect: s.callouts.connect, Disconnect: s.callouts.disconnect,
		ModelsChanged: s.callouts.models.changed, EnvModels: s.callouts.models.envCfg, CheckURL: s.callouts.http.CheckContext}
	h := handler.New(gql.NewExecutableSchema(gql.Config{Resolvers: res}))
	h.AddTransport(transport.Websocket{
		KeepAlivePingInterval: 15 * time.Second,
		InitFunc:              s.websocketInit,
	})
	h.AddTransport(transport.Options{})
	h.AddTransport(transport.GET{})
	h.AddTransport(postTransport{})
	h.Use(introspection{anonymous: s.cfg.AnonymousIntrospection})
	h.Use(documentLimits{})
	h.Use(extension.FixedComplexityLimit(maxQueryComplexity))
	h.SetValidationRulesFn(func() *rules.Rules {
		s.validations.Add(1)
		return rules.NewDefaultRules()
	})
	h.SetErrorPresenter(gql.Presenter(func(ctx context.Context, err error) {
		if errors.Is(err, errPanicked) {
			return // logged with its stack when it was recovered
		}
		s.log.ErrorContext(ctx, "request failed", "err", err)
	}))
	h.SetRecoverFunc(func(ctx context.Context, v any) error {
		// gqlgen calls this from its deferred recover, so the stack is
		// still the panicking resolver's.
		s.log.ErrorContext(ctx, "resolver panicked", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		return errPanicked
	})
	return h
}

// errPanicked is a panicking resolver's error: the client sees "internal
// error" (the presenter hides every error that is not a client's), the log
// the panic and its stack.
var errPanicked = errors.New("internal error: a resolver panicked")

// websocketInit authenticates a graphql-transport-ws connection from its
// connection_init payload ({"Authorization": "Bearer <key>"}), or from the
// upgrade request's header. The ack carries no payload: echoing the init
// payload would send the client's key back.
func (s *Server) websocketInit(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	if _, ok := gql.CallerFrom(ctx); ok {
		return ctx, nil, nil
	}
	auth := p.Authorization()
	if auth == "" {
		if v, ok := p["authorization"].(string); ok {
			auth = v
		}
	}
	r, _ := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	r.Header.Set("Authorization", auth)
	c, err := s.auth.authenticate(r)
	if err != nil {
		return ctx, nil, err
	}
	return gql.WithCaller(ctx, c), nil, nil
}

// authenticated puts the caller of a valid key in the request context. A
// request without a key goes on unauthenticated (every resolver then
// answers UNAUTHENTICATED, and a websocket may still authenticate in its
// connection_init); a wrong key is refused here. The rate limits are
// applied here too, before anything reads the request's body: per source
// without a key, per key and workspace with one, and a source that keeps
// failing to authenticate is slowed down, then refused for a while.
func (s *Server) authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		src := source(r)
		if r.Header.Get("Authorization") == "" {
			if ok, wait := s.limits.allowAnonymous(src); !ok {
				tooMany(w, wait, "too many requests without an API key from this address")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if refused, wait := s.limits.refusedSource(src); refused {
			tooMany(w, wait, "too many failed authentications from this address")
			return
		}
		c, err := s.auth.authenticate(r)
		if err != nil {
			if !errors.Is(err, errBadKey) && !errors.Is(err, errNotBearer) {
				s.log.ErrorContext(r.Context(), "authenticating", "err", err)
				err = errors.New("internal error")
			} else if d := s.limits.failed(src); d > 0 {
				s.limits.sleep(r.Context(), d)
			}
			writeError(w, http.StatusUnauthorized, gql.CodeUnauthenticated, err.Error())
			return
		}
		if ok, wait := s.limits.allowCaller(c); !ok {
			tooMany(w, wait, "too many requests for this API key or its workspace")
			return
		}
		next.ServeHTTP(w, r.WithContext(gql.WithCaller(r.Context(), c)))
	})
}

func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.cfg.MaxBodyBytes {
			writeError(w, http.StatusRequestEntityTooLarge, gql.CodeLimit, "the request body is over the "+strconv.FormatInt(s.cfg.MaxBodyBytes, 10)+"-byte limit")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// callerAndID is the preamble of a REST route under /api/…/{id}: the
// authenticated caller and the path's id, or an answer that says which is
// missing (false: the route is done).
func callerAndID(w http.ResponseWriter, r *http.Request, what string) (gql.Caller, int64, bool) {
	c, ok := gql.CallerFrom(r.Context())
	if !ok {
		writeError(w, http.StatusUnauthorized, gql.CodeUnauthenticated, `missing API key: send "Authorization: Bearer <key>"`)
		return gql.Caller{}, 0, false
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		writeError(w, http.StatusBadRequest, gql.CodeValidation, what+" id: must be a positive integer")
		return gql.Caller{}, 0, false
	}
	return c, id, true
}

// sessionEvents is the Server-Sent Events stream of a session.
func (s *Server) sessionEvents(w http.ResponseWriter, r *http.Request) {
	c, id, ok := callerAndID(w, r, "session")
	if !ok {
		return
	}
	if _, err := s.store.Session(r.Context(), c.WorkspaceID, id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, gql.CodeNotFound, "session "+strconv.FormatInt(id, 10)+" not found")
			return
		}
		s.log.ErrorContext(r.Context(), "reading a session", "err", err)
		writeError(w, http.StatusInternalServerError, gql.CodeInternal, "internal error")
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.closing:
			cancel()
		case <-ctx.Done():
		}
	}()
	events.ServeSSE(w, r.WithContext(ctx), s.hub, c.WorkspaceID, id)
}

// readyz says whether this replica should be sent traffic: its store
// answers (migrated, since the server opened it), and it is not shutting
// down, so a load balancer drains it while its turns finish.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	select {
	case <-s.closing:
		writeError(w, http.StatusServiceUnavailable, gql.CodeInternal, "shutting down")
		return
	default:
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		writeError(w, http.StatusServiceUnavailable, gql.CodeInternal, "the store does not answer")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"status":"ready"}`))
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if _, err := s.store.Workspace(ctx, 1); err != nil && !errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusServiceUnavailable, gql.CodeInternal, "the store does not answer")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"status":"ok"}`))
}

// count records each request's route and status class.
func (s *Server) count(route string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		next.ServeHTTP(sw, r)
		s.metrics.requests.WithLabelValues(route, strconv.Itoa(sw.code/100)+"xx").Inc()
	})
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach Flush and Hijack.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes flushes through, for the event stream.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []any{map[string]any{"message": msg, "extensions": map[string]any{"code": code}}}})
}
