package turn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
)

// ErrSessionEnded is returned for a message sent to an ended session; the
// message is not stored.
var ErrSessionEnded = store.ErrSessionEnded

// ErrChildSession is returned for a message sent to a sub_agent's child
// session from outside: only its parent's dispatch speaks in it.
var ErrChildSession = errors.New("the session is a sub_agent's child session: only its dispatch sends it a message")

// ErrQuestionOpen is returned by Task for a session whose open question is
// waiting for the user: only the user answers it, and a task's run that
// asked again could not save its question.
var ErrQuestionOpen = errors.New("the session has an open question waiting for the user's reply")

// Service runs the turns of stored sessions: each inbound message is written
// to the transcript before its run starts, turns of one session never run at
// the same time, and a newer message interrupts a running turn.
type Service struct {
	Store    store.Store
	Engine   *engine.Engine
	Registry *node.Registry
	Clock    clock.Clock
	Mock     bool
	// Observer, when set, receives every run's events with its workspace
	// and session, on the run's goroutine; it must not block.
	Observer func(ws, sessionID int64, e engine.Event)
	// Services are the outside systems runs may call (HTTP, custom
	// actions, MCP connectors, the async outbox); nil for none.
	Services *node.Services
	// ServicesFor, when set, gives each workspace its own Services (its
	// custom actions and connectors) and is used instead of Services.
	ServicesFor func(ws int64) *node.Services
	// Tracer, when set, makes a span of each turn and of each node it
	// dispatches.
	Tracer Tracer

	transcripts transcripts

	mu       sync.Mutex
	plans    map[planKey]*engine.Plan
	sessions map[int64]*sessionTurns
}

type planKey struct {
	workflowID int64
	version    int
}

// sessionTurns serializes one session's turns in the order their messages
// arrived: each takes a ticket and runs when its number is served. interrupt
// belongs to the turn now running; a newer message closes it on arrival.
type sessionTurns struct {
	mu      sync.Mutex
	served  *sync.Cond
	next    uint64 // the ticket the next arrival takes
	serving uint64 // the ticket whose turn may run
	// newest is the ticket of the newest user message, plus one (0 for
	// none): only a message interrupts, never a task or a decision.
	newest    uint64
	interrupt chan struct{}
	users     int
}

// TurnResult is what one message caused.
type TurnResult struct {
	UserMessage store.Message
	Runs        []store.Run
	Messages    []store.Message
	// output is a child turn's own variables, for its sub_agent dispatch.
	output map[string]any
}

// Send runs one turn of a session.
func (s *Service) Send(ctx context.Context, ws, sessionID int64, text string) (TurnResult, error) {
	return s.serialized(ctx, ws, sessionID, text, turnKind{})
}

// Task runs a turn with no user message (runWorkflowTask: the caller's own
// scheduler). It starts at start; userMessage is "" in the run's context. A
// session with an open question is refused with ErrQuestionOpen, before
// anything runs: only the user answers it, and the task must not speak into
// a conversation that is waiting on the user.
func (s *Service) Task(ctx context.Context, ws, sessionID int64) (TurnResult, error) {
	return s.serialized(ctx, ws, sessionID, "", turnKind{task: true})
}

// turnKind says what started a turn: a user's message (the zero value), a
// task with no message, or a sub_agent dispatch at some depth.
type turnKind struct {
	task  bool
	depth int
	// halt, when closed, interrupts the turn as a newer message would:
	// a child's dispatch that timed out.
	halt <-chan struct{}
	// decision, for a task turn, is the decided wait it resumes.
	decision *decision
}

func (s *Service) serialized(ctx context.Context, ws, sessionID int64, text string, kind turnKind) (res TurnResult, err error) {
	if t := s.Tracer; t != nil {
		ctx = t.StartTurn(ctx, ws, sessionID)
		defer func() { t.EndTurn(ctx, res, err) }()
	}
	st := s.acquire(sessionID)
	defer s.release(sessionID, st)
	st.mu.Lock()
	ticket := st.next
	st.next++
	if !kind.task {
		// PLATFORM §3: the running turn stops before its next dispatch.
		if st.interrupt != nil {
			close(st.interrupt)
			st.interrupt = nil
		}
		st.newest = ticket + 1
	}
	for st.serving != ticket {
		st.served.Wait()
	}
	st.mu.Unlock()
	var stop chan struct{}
	defer func() {
		st.mu.Lock()
		if st.interrupt == stop {
			st.interrupt = nil
		}
		st.serving++
		st.served.Broadcast()
		st.mu.Unlock()
	}()
	if cl, ok := s.Store.(store.Cluster); ok {
		// Across replicas, the session's turn lock; a turn another replica
		// runs is asked to stop before its next dispatch. Freed before the
		// next turn of this process is let go.
		release, err := cl.LockSession(ctx, sessionID, func() {
			_ = cl.Notify(ctx, store.ChannelInterrupt, strconv.FormatInt(sessionID, 10))
		})
		if err != nil {
			return TurnResult{}, fmt.Errorf("session %d: %w", sessionID, err)
		}
		defer release()
	}
	stop = make(chan struct{})
	st.mu.Lock()
	if st.newest > ticket+1 {
		// A newer message is already waiting behind this one: this turn is
		// interrupted before its first dispatch, so the newest message is
		// answered promptly. Its message is still stored.
		close(stop)
	} else {
		st.interrupt = stop
	}
	st.mu.Unlock()
	if kind.halt != nil {
		ended := make(chan struct{})
		defer close(ended)
		go func() {
			select {
			case <-kind.halt:
				s.interrupt(sessionID)
			case <-ended:
			}
		}()
	}
	return s.turn(ctx, ws, sessionID, text, stop, kind)
}

// ListenInterrupts stops this process's turns that another replica asks
// to interrupt (a newer message arrived there), until ctx ends. It does
// nothing for a store that no other process shares.
func (s *Service) ListenInterrupts(ctx context.Context) error {
	cl, ok := s.Store.(store.Cluster)
	if !ok {
		<-ctx.Done()
		return ctx.Err()
	}
	return cl.Listen(ctx, func(channel, payload string) {
		if channel == store.ChannelInterrupt {
			s.InterruptNotice(payload)
		}
	})
}

// InterruptNotice stops the turn of the session a ChannelInterrupt notice
// names, if this process runs one.
func (s *Service) InterruptNotice(payload string) {
	if id, err := strconv.ParseInt(payload, 10, 64); err == nil {
		s.interrupt(id)
	}
}

// Queued counts the turns of a session running or waiting for their turn in
// this Service.
func (s *Service) Queued(sessionID int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.sessions[sessionID]; st != nil {
		return st.users
	}
	return 0
}

func (s *Service) acquire(id int64) *sessionTurns {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions == nil {
		s.sessions = map[int64]*sessionTurns{}
	}
	st := s.sessions[id]
	if st == nil {
		st = &sessionTurns{}
		st.served = sync.NewCond(&st.mu)
		s.sessions[id] = st
	}
	st.users++
	return st
}

func (s *Service) release(id int64, st *sessionTurns) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.users--; st.users == 0 {
		delete(s.sessions, id)
	}
}

// plan compiles a published version once and keeps it.
func (s *Service) plan(ctx context.Context, ws int64, wf store.Workflow) (*engine.Plan, error) {
	key := planKey{wf.ID, wf.PublishedVersion}
	s.mu.Lock()
	p := s.plans[key]
	s.mu.Unlock()
	if p != nil {
		return p, nil
	}
	v, err := s.Store.WorkflowVersion(ctx, ws, wf.ID, wf.PublishedVersion)
	if err != nil {
		return nil, fmt.Errorf("loading workflow %d version %d: %w", wf.ID, wf.PublishedVersion, err)
	}
	g, err := graph.Decode(v.Graph)
	if err != nil {
		return nil, fmt.Errorf("workflow %d version %d: %w", wf.ID, wf.PublishedVersion, err)
	}
	if p, err = engine.Compile(g, s.registry()); err != nil {
		return nil, fmt.Errorf("workflow %d version %d: %w", wf.ID, wf.PublishedVersion, err)
	}
	s.mu.Lock()
	if s.plans == nil {
		s.plans = map[planKey]*engine.Plan{}
	}
	s.plans[key] = p
	s.mu.Unlock()
	return p, nil
}

func (s *Service) registry() *node.Registry {
	if s.Registry == nil {
		return node.Default
	}
	return s.Registry
}

func (s *Service) now() clock.Clock {
	if s.Clock == nil {
		return clock.Real{}
	}
	return s.Clock
}

func traceJSON(rows []engine.TraceRow) json.RawMessage {
	if len(rows) == 0 {
		return json.RawMessage("[]")
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return json.RawMessage("[]")
	}
	return b
}

// Now is the service's current time, the one expiry is judged by.
func (s *Service) Now() time.Time { return s.now().Now() }
