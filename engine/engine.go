// Package engine runs a compiled workflow graph: one run is one turn through
// the graph, bounded by each node's maxVisits and the run's budget, with
// failure routing, loop escapes, traces and events. The engine owns what is
// common to every node type; executors do their one job.
package engine

import (
	"errors"
	"log/slog"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/node"
)

// Limits bound one run (seed: "Graph size and run limits").
type Limits struct {
	// MaxNodeExecutions is the run's node-execution budget (default 250).
	MaxNodeExecutions int
	// MaxDuration is the run's wall-clock budget (default 10 minutes).
	MaxDuration time.Duration
}

// DefaultLimits are the seed's defaults.
func DefaultLimits() Limits { return Limits{MaxNodeExecutions: 250, MaxDuration: 10 * time.Minute} }

// Options configure an Engine. Zero values take the defaults.
type Options struct {
	Limits   Limits
	Clock    clock.Clock
	Registry *node.Registry
	// Place is where the engine's runs take place (node.OnServer,
	// node.Offline), so a node that cannot run there says what is missing in
	// words true for it; zero says "here".
	Place node.Place
	// Logger receives what a run's trace and error must not carry: the
	// stack of a panicking executor. nil discards it.
	Logger *slog.Logger
}

// Engine runs plans. It holds no per-run state and is safe for concurrent use.
type Engine struct {
	limits Limits
	clock  clock.Clock
	place  node.Place
	log    *slog.Logger
}

// New returns an engine, refusing limits an operator could not mean.
func New(opts Options) (*Engine, error) {
	l := opts.Limits
	def := DefaultLimits()
	if l.MaxNodeExecutions == 0 {
		l.MaxNodeExecutions = def.MaxNodeExecutions
	}
	if l.MaxDuration == 0 {
		l.MaxDuration = def.MaxDuration
	}
	if l.MaxNodeExecutions < 1 {
		return nil, errors.New("engine: the node-execution budget must be at least 1")
	}
	if l.MaxDuration < 0 {
		return nil, errors.New("engine: the run deadline must be positive")
	}
	c := opts.Clock
	if c == nil {
		c = clock.Real{}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Engine{limits: l, clock: c, place: opts.Place, log: log}, nil
}

// Limits returns the engine's run budget.
func (e *Engine) Limits() Limits { return e.limits }
