package subagent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
	"github.com/wetel/wetel/node/subagent"
	"github.com/wetel/wetel/vocab"
)

// fakeChildren answers each agent as told, and records what it was asked.
type fakeChildren struct {
	mu     sync.Mutex
	asked  []subagent.Request
	answer func(ctx context.Context, r subagent.Request) (subagent.Result, error)
}

func (f *fakeChildren) Dispatch(ctx context.Context, r subagent.Request) (subagent.Result, error) {
	f.mu.Lock()
	f.asked = append(f.asked, r)
	f.mu.Unlock()
	return f.answer(ctx, r)
}

func run(t *testing.T, cfg string, d subagent.Dispatcher, in engine.Input) *engine.Result {
	t.Helper()
	doc := `{"nodes":[{"id":"start","type":"start"},{"id":"ask","type":"sub_agent","config":` + cfg + `},
		{"id":"ok","type":"response","config":{"messageTemplate":"ok"}},{"id":"bad","type":"response","config":{"messageTemplate":"bad {{_lastNodeErrorCode}}"}}],
		"edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"ok","label":"success"},
		{"id":"e3","source":"ask","target":"bad","label":"failure"}]}`
	g, err := graph.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile(g, node.Default)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := engine.New(engine.Options{Place: node.OnServer})
	if d != nil {
		in.Services = node.NewServices(subagent.DispatcherKey.With(d))
	}
	if in.Vars == nil {
		in.Vars = map[string]any{vocab.FactSessionID: int64(5), vocab.FactUserMessage: "hi"}
	}
	return eng.Run(context.Background(), p, in)
}

func said(res *engine.Result) string {
	var out []string
	for _, m := range res.Messages {
		out = append(out, m.Text)
	}
	return strings.Join(out, "|")
}

func TestResultsInTargetOrder(t *testing.T) {
	t.Parallel()
	f := &fakeChildren{answer: func(_ context.Context, r subagent.Request) (subagent.Result, error) {
		if r.AgentID == 2 {
			return subagent.Result{Status: subagent.StatusError, Error: "it failed"}, nil
		}
		return subagent.Result{Status: subagent.StatusOK, Messages: []string{fmt.Sprint("from ", r.AgentID, ": ", r.Text)}, Output: map[string]any{"n": r.AgentID}}, nil
	}}
	res := run(t, `{"targets":[{"agentId":3,"messageTemplate":"{{userMessage}}!"},{"agentId":2},{"agentId":1}],"resultVar":"r"}`, f, engine.Input{})
	if said(res) != "ok" || res.Status != vocab.RunCompleted {
		t.Fatalf("%s: %s (%s)", res.Status, said(res), res.Error)
	}
	got := res.Vars["r"].([]any)
	want := []string{"3 ok from 3: hi! <nil>", "2 error <nil> it failed", "1 ok from 1: hi <nil>"}
	for i, e := range got {
		m := e.(map[string]any)
		msgs := m["messages"].([]any)
		first := any(nil)
		if len(msgs) > 0 {
			first = msgs[0]
		}
		line := fmt.Sprint(m["agentId"], " ", m["status"], " ", first, " ", m["error"])
		if line != want[i] {
			t.Errorf("entry %d: %q, want %q", i, line, want[i])
		}
	}
	for _, r := range f.asked {
		if r.ParentSessionID != 5 || r.Depth != 1 {
			t.Errorf("asked %+v: want parent 5 at depth 1", r)
		}
	}
}

// Seed 001: only a configuration error takes failure.
func TestConfigurationErrorsTakeFailure(t *testing.T) {
	t.Parallel()
	other := &fakeChildren{answer: func(context.Context, subagent.Request) (subagent.Result, error) {
		return subagent.Result{}, errors.New("no such agent in this workspace")
	}}
	for _, tc := range []struct {
		name string
		d    subagent.Dispatcher
		in   engine.Input
	}{
		{"an agent of another workspace", other, engine.Input{}},
		{"dispatch nested too deep", &fakeChildren{answer: func(context.Context, subagent.Request) (subagent.Result, error) {
			return subagent.Result{Status: subagent.StatusOK}, nil
		}}, engine.Input{Depth: subagent.MaxDepth}},
	} {
		res := run(t, `{"targets":[{"agentId":9}],"resultVar":"r"}`, tc.d, tc.in)
		if said(res) != "bad UNKNOWN" {
			t.Errorf("%s: %s (%s)", tc.name, said(res), res.Error)
		}
	}
}

// The parent's interrupt ends every child's wait: the node returns with
// what each reported, not after the children would have finished.
func TestParentInterruptEndsTheWait(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	f := &fakeChildren{answer: func(ctx context.Context, _ subagent.Request) (subagent.Result, error) {
		close(stop) // the parent is interrupted while the child works
		<-ctx.Done()
		return subagent.Result{Status: subagent.StatusTimeout}, nil
	}}
	res := run(t, `{"targets":[{"agentId":1}],"resultVar":"r","timeoutMs":300000}`, f, engine.Input{Interrupt: stop})
	if res.Status != vocab.RunInterrupted {
		t.Fatalf("%s: %s", res.Status, said(res))
	}
	if got := res.Vars["r"].([]any)[0].(map[string]any)["status"]; got != subagent.StatusTimeout {
		t.Errorf("the child's status %v", got)
	}
}

func TestWithoutChildSessions(t *testing.T) {
	t.Parallel()
	res := run(t, `{"targets":[{"agentId":1}]}`, nil, engine.Input{})
	if said(res) != "bad UNKNOWN" || !strings.Contains(res.Error+fmt.Sprint(res.Vars["_lastNodeError"]), "child sessions are not available") {
		t.Errorf("%s (%v)", said(res), res.Vars["_lastNodeError"])
	}
}
