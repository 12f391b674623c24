package turn_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/postgres"
	"github.com/wetel/wetel/store/postgres/pgtest"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// replicas are two turn Services on one PostgreSQL database, each with a
// store of its own, as two `wetel serve` processes are.
func replicas(t *testing.T, graph string, reg *node.Registry) (*fixture, *turn.Service) {
	t.Helper()
	u := pgtest.URL(t)
	a, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureOn(t, graph, a)
	b, err := postgres.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if reg == nil {
		reg = node.Default
	}
	// Real clocks on both, as two processes have: run times are compared.
	f.svc = &turn.Service{Store: a, Engine: mustEngine(t), Registry: reg, Mock: true}
	other := &turn.Service{Store: b, Engine: mustEngine(t), Registry: reg, Mock: true}
	return f, other
}

// Turns of one session sent to two replicas at once never overlap: every
// message is stored and gets its turn, and no two runs of the session run
// at the same time.
func TestTurnsSerializedAcrossReplicas(t *testing.T) {
	reg := node.Default.Clone()
	if err := reg.Add(holdSpec(make(chan struct{}), make(chan struct{}))); err != nil {
		t.Fatal(err)
	}
	f, other := replicas(t, holdGraph, reg)
	s := f.session(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 20 {
		svc := f.svc
		if i%2 == 1 {
			svc = other
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := svc.Send(ctx, f.ws, s.ID, fmt.Sprintf("m%d", i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	runs, err := f.st.RunsBySession(ctx, f.ws, s.ID)
	if err != nil || len(runs) != 20 {
		t.Fatalf("%d runs, %v; want 20", len(runs), err)
	}
	for i := 1; i < len(runs); i++ {
		prev, cur := runs[i-1], runs[i]
		if prev.FinishedAt == nil || cur.StartedAt.Before(*prev.FinishedAt) {
			t.Fatalf("run %d started at %v, before run %d finished at %v", cur.ID, cur.StartedAt, prev.ID, prev.FinishedAt)
		}
	}
}

// A message arriving at one replica interrupts the turn the other runs:
// that run stops before its next dispatch, INTERRUPTED, and the new
// message gets its own turn.
func TestInterruptAcrossReplicas(t *testing.T) {
	entered := make(chan struct{})
	reg := node.Default.Clone()
	// The first message's node waits until its turn is interrupted, so the
	// test knows the interrupt crossed from the other replica.
	if err := reg.Add(&node.Spec{Type: "hold", Summary: "Waits to be interrupted.", Routing: node.RouteAll, Runs: node.OnServer,
		Build: func(node.BuildInput) (node.Executor, error) {
			return node.ExecutorFunc(func(ctx context.Context, x *node.Exec) (node.Outcome, error) {
				if x.Vars[vocab.FactUserMessage] == "first" {
					close(entered)
					select {
					case <-x.Interrupt:
					case <-ctx.Done():
					}
				}
				return node.Outcome{}, nil
			}), nil
		}}); err != nil {
		t.Fatal(err)
	}
	f, other := replicas(t, holdGraph, reg)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listening := make(chan struct{})
	go func() { close(listening); _ = f.svc.ListenInterrupts(ctx) }()
	<-listening
	s := f.session(t)
	first := make(chan turn.TurnResult, 1)
	// Bounded, so a lost interrupt fails the test instead of hanging it.
	bounded, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	go func() {
		res, err := f.svc.Send(bounded, f.ws, s.ID, "first")
		if err != nil {
			t.Error(err)
		}
		first <- res
	}()
	<-entered
	second := make(chan turn.TurnResult, 1)
	go func() {
		res, err := other.Send(context.Background(), f.ws, s.ID, "second")
		if err != nil {
			t.Error(err)
		}
		second <- res
	}()
	// The interrupt reaches the first replica while its node is in flight;
	// the node then finishes and the run stops before the next one.
	if r := (<-first).Runs[0]; r.Status != vocab.RunInterrupted {
		t.Fatalf("the first turn: %+v", r)
	}
	if r := (<-second).Runs[0]; r.Status != vocab.RunCompleted {
		t.Fatalf("the second turn: %+v", r)
	}
}

var _ store.Cluster = (*postgres.Store)(nil)
