package server

import (
	"context"
	"math"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/events"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// metrics are what /metrics exposes (Prometheus text format).
type metrics struct {
	reg      *prometheus.Registry
	turns    *prometheus.CounterVec
	nodes    *prometheus.CounterVec
	runTime  *prometheus.HistogramVec
	requests *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		turns: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wetel_turns_total",
			Help: "Turns run, by the status of their last run (NONE when nothing ran: an unpublished workflow)."}, []string{"status"}),
		nodes: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wetel_node_executions_total",
			Help: "Node executions, by node type and trace status."}, []string{"type", "status"}),
		runTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "wetel_run_duration_seconds",
			Help:    "Run durations, from start to finish, by status.",
			Buckets: []float64{0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600}}, []string{"status"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wetel_http_requests_total",
			Help: "HTTP requests, by route and status code class."}, []string{"route", "code"}),
	}
	m.reg.MustRegister(m.turns, m.nodes, m.runTime, m.requests,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// gauge adds a gauge read at scrape time.
func (m *metrics) gauge(name, help string, read func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, read))
}

func (m *metrics) observe(e engine.Event) {
	switch e.Kind {
	case engine.EventNodeCompleted:
		m.nodes.WithLabelValues(e.NodeType, e.Status).Inc()
	case engine.EventNodeFailed:
		m.nodes.WithLabelValues(e.NodeType, vocab.TraceFailed).Inc()
	}
}

func (m *metrics) turn(res turn.TurnResult) {
	status := "NONE"
	for _, r := range res.Runs {
		status = r.Status
		if r.FinishedAt != nil {
			m.runTime.WithLabelValues(r.Status).Observe(r.FinishedAt.Sub(r.StartedAt).Seconds())
		}
	}
	m.turns.WithLabelValues(status).Inc()
}

// registerGauges adds what is read at scrape time: open questions (from
// the store, so every replica reports the cluster's count) and the event
// hub's counters.
func (s *Server) registerGauges() {
	m := s.metrics
	m.gauge("wetel_open_waits", "Open, unexpired await_reply questions in every workspace.", func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := s.store.CountOpenWaits(ctx, s.clock.Now())
		if err != nil {
			return math.NaN()
		}
		return float64(n)
	})
	counter := func(name, help string, read func(events.Stats) uint64) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(read(s.hub.Stats())) }))
	}
	counter("wetel_events_published_total", "Events published.", func(st events.Stats) uint64 { return st.Published })
	counter("wetel_events_persisted_total", "Events written to the store.", func(st events.Stats) uint64 { return st.Persisted })
	counter("wetel_events_dropped_total", "Events not written to the store because its queue was full (still served from memory).", func(st events.Stats) uint64 { return st.Dropped })
	counter("wetel_events_lagged_total", "Subscribers dropped for falling behind.", func(st events.Stats) uint64 { return st.Lagged })
	m.gauge("wetel_events_subscribers", "Open event subscriptions.", func() float64 { return float64(s.hub.Stats().Subscribers) })
	m.gauge("wetel_events_queued", "Events waiting to be written to the store.", func() float64 { return float64(s.hub.Stats().Queued) })
}
