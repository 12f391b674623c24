package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/scenario"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
)

// cmdTest is `wetel test PATH...`: every scenario runs offline, on the same
// turn service as `wetel run`, in mock mode with nothing leaving the
// process; the results print in the order the files were named.
func cmdTest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("test", stderr)
	junit := fs.String("junit", "", "also write the results as JUnit XML to this file")
	parallel := fs.Int("parallel", 0, "how many scenarios run at once (0: one per CPU)")
	pos, code, ok := parseCommand(fs, args, stdout)
	if !ok {
		return code
	}
	if *parallel == 0 {
		*parallel = runtime.GOMAXPROCS(0)
	}
	if len(pos) == 0 || *parallel < 1 {
		fmt.Fprintln(stderr, usageLine("test"))
		return 2
	}
	files, err := scenario.Collect(pos)
	if err != nil {
		fmt.Fprintf(stderr, "wetel test: %v\n", err)
		return 2
	}
	results := runScenarios(ctx, files, *parallel)
	failed := 0
	for _, r := range results {
		scenario.Report(stdout, r)
		if !r.Passed() {
			failed++
		}
	}
	if *junit != "" {
		if err := writeJUnit(*junit, results); err != nil {
			fmt.Fprintf(stderr, "wetel test: --junit: %v\n", err)
			return 1
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "%d of %d scenario(s) failed\n", failed, len(results))
		return 1
	}
	fmt.Fprintf(stdout, "%d scenario(s) passed\n", len(results))
	return 0
}

func runScenarios(ctx context.Context, files []string, parallel int) []*scenario.Result {
	results := make([]*scenario.Result, len(files))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(parallel, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = runScenarioFile(ctx, files[i])
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	return results
}

func runScenarioFile(ctx context.Context, path string) *scenario.Result {
	f, err := scenario.Load(path)
	if err != nil {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		return &scenario.Result{File: &scenario.File{Path: path, Name: name}, Err: err}
	}
	return scenario.Play(ctx, f, openScenario, time.Now)
}

func writeJUnit(path string, results []*scenario.Result) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := scenario.JUnit(out, results); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// scenarioGraph loads the scenario's graph with its mocks written over the
// graph's own, refusing one that publishing would refuse.
func scenarioGraph(f *scenario.File) (*graph.Graph, sequenceMocks, error) {
	path := f.Graph
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(f.Path), path)
	}
	g, err := loadGraph(path)
	if err != nil {
		return nil, nil, fmt.Errorf("graph %s: %w", path, err)
	}
	overrides := make([]mockOverride, 0, len(f.Mocks))
	seqs := sequenceMocks{}
	for _, m := range f.Mocks {
		if len(m.Sequence) > 0 {
			if err := sequenceAllowed(g, m.Node); err != nil {
				return nil, nil, fmt.Errorf("mocks: %w", err)
			}
			// The node's own mocks go: the engine would answer from them
			// before the sequence's executor runs.
			if err := clearMocks(g, m.Node); err != nil {
				return nil, nil, fmt.Errorf("mocks: %w", err)
			}
			for _, one := range m.Sequence {
				one.Node = m.Node
				seqs[m.Node] = append(seqs[m.Node], overrideOf(one))
			}
			continue
		}
		overrides = append(overrides, overrideOf(m))
	}
	if err := applyMocks(g, overrides); err != nil {
		return nil, nil, fmt.Errorf("mocks: %w", err)
	}
	if _, err := engine.Compile(g, node.Default); err != nil {
		return nil, nil, fmt.Errorf("graph %s with the scenario's mocks: publishing would be refused:\n%w", path, err)
	}
	return g, seqs, nil
}

func overrideOf(m scenario.Mock) mockOverride {
	if m.Error != nil {
		b, _ := json.Marshal(m.Error)
		return mockOverride{nodeID: m.Node, field: "mockError", value: b}
	}
	return mockOverride{nodeID: m.Node, field: "mockResponse", value: m.Response}
}

// sequenceAllowed refuses a sequence on a node that cannot be mocked, as
// the publish checks refuse a mockResponse there.
func sequenceAllowed(g *graph.Graph, id string) error {
	n, ok := g.NodeByID(id)
	if !ok {
		return fmt.Errorf("mock for node %q: no such node", id)
	}
	if spec, ok := node.Default.Lookup(n.Type); !ok || !spec.Mockable {
		names := node.JoinNames(node.Default.Names(func(s *node.Spec) bool { return s.Mockable }))
		return fmt.Errorf("mock sequence for node %q: a %s node cannot be mocked; only %s nodes can", id, n.Type, names)
	}
	return nil
}

// clearMocks removes a node's own mockResponse and mockError.
func clearMocks(g *graph.Graph, id string) error {
	n, ok := g.NodeByID(id)
	if !ok {
		return fmt.Errorf("mock for node %q: no such node", id)
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(n.Config, &cfg); err != nil || cfg == nil {
		return nil
	}
	delete(cfg, "mockResponse")
	delete(cfg, "mockError")
	b, err := json.Marshal(cfg)
	n.Config = b
	return err
}

// sequenceMocks are a scenario's mock sequences: each node's outcomes in
// the order its executions take them, the last repeating. One scenario's
// turns run one after another, but a run's nodes may not, hence the lock.
type sequenceMocks map[string][]mockOverride

type sequenceSource struct {
	mu    sync.Mutex
	seqs  sequenceMocks
	taken map[string]int
}

func (s *sequenceSource) outcome(nodeID string) (*mockOverride, bool) {
	list := s.seqs[nodeID]
	if len(list) == 0 {
		return nil, false
	}
	s.mu.Lock()
	i := min(s.taken[nodeID], len(list)-1)
	s.taken[nodeID]++
	s.mu.Unlock()
	return &list[i], true
}

// scenarioSession is a scenario's conversation on an offline store.
type scenarioSession struct {
	off   *offline
	clock *clock.Fake
}

// openScenario is the scenario.Opener of wetel test: a throwaway store, the
// scenario's clock and identity, mock mode, and no outbound services, so
// a node left without a mock fails by name instead of calling out.
func openScenario(ctx context.Context, f *scenario.File) (scenario.Session, error) {
	g, seqs, err := scenarioGraph(f)
	if err != nil {
		return nil, err
	}
	c := clock.NewFake(f.Clock)
	o := offlineOptions{graph: g, mock: true, capture: true, clock: c,
		failureResponse: f.FailureResponse, services: &offlineServices{svc: node.NewServices()}}
	if len(seqs) > 0 {
		if o.registry, err = outcomeTypes(); err != nil {
			return nil, err
		}
		outcomesKey.Provide(o.services.svc, outcomeSource(&sequenceSource{seqs: seqs, taken: map[string]int{}}))
	}
	off, err := openOffline(ctx, o)
	if err != nil {
		return nil, err
	}
	if f.Identity != "" {
		if err := off.setIdentity(ctx, f.Identity); err != nil {
			off.Close()
			return nil, err
		}
	}
	return &scenarioSession{off: off, clock: c}, nil
}

func (s *scenarioSession) Close() { s.off.Close() }

func (s *scenarioSession) Send(ctx context.Context, t scenario.Turn) (scenario.Observed, error) {
	if t.Identity != nil {
		if err := s.off.setIdentity(ctx, *t.Identity); err != nil {
			return scenario.Observed{}, err
		}
	}
	s.clock.Advance(t.Advance)
	res, err := s.off.send(ctx, t.Message)
	if errors.Is(err, turn.ErrSessionEnded) {
		return scenario.Observed{}, errors.New("the session has ended, so this message cannot be sent (an end_session node ran in an earlier turn)")
	}
	if err != nil {
		return scenario.Observed{}, err
	}
	obs, err := observed(turnJSON(t.Message, res, s.off.capture))
	if err != nil {
		return obs, err
	}
	sess, err := s.off.store.Session(ctx, s.off.ws, s.off.session.ID)
	if err != nil {
		return obs, err
	}
	obs.SessionEnded = sess.Status == store.SessionEnded
	return obs, nil
}

// observed reads a turn as `wetel run` prints it, so a scenario checks
// exactly what a person following the README sees.
func observed(t turnOutput) (scenario.Observed, error) {
	var o scenario.Observed
	for _, r := range t.Runs {
		run := scenario.Run{ID: r.ID, Status: r.Status, ErrorCode: r.ErrorCode, Error: r.Error}
		var rows []struct {
			NodeID     string `json:"nodeId"`
			NodeType   string `json:"nodeType"`
			Status     string `json:"status"`
			ErrorClass string `json:"errorClass"`
			Error      string `json:"error"`
		}
		if err := json.Unmarshal(r.NodeTrace, &rows); err != nil {
			return o, fmt.Errorf("run %d: reading its trace: %w", r.ID, err)
		}
		for _, row := range rows {
			run.Trace = append(run.Trace, scenario.TraceRow(row))
		}
		if len(r.Vars) > 0 {
			if err := json.Unmarshal(r.Vars, &run.Vars); err != nil {
				return o, fmt.Errorf("run %d: reading its variables: %w", r.ID, err)
			}
		}
		o.Runs = append(o.Runs, run)
	}
	for _, m := range t.Messages {
		o.Messages = append(o.Messages, scenario.Message{Text: m.Text, Mood: m.Mood})
	}
	return o, nil
}
