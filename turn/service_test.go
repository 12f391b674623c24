package turn_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/awaitreply"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// fixture is a stored workspace with one agent on a published graph.
type fixture struct {
	st    store.Store
	svc   *turn.Service
	clock *clock.Fake
	ws    int64
	agent store.Agent
	wf    store.Workflow
}

func newFixture(t testing.TB, graph string) *fixture {
	t.Helper()
	return newFixtureAt(t, graph, filepath.Join(t.TempDir(), "w.db"))
}

func mustEngine(t testing.TB) *engine.Engine {
	eng, err := engine.New(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func newFixtureAt(t testing.TB, graph, path string) *fixture {
	t.Helper()
	st, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureOn(t, graph, st)
}

func newFixtureOn(t testing.TB, graph string, st store.Store) *fixture {
	t.Helper()
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	ws, err := st.CreateWorkspace(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{st: st, ws: ws.ID, clock: clock.NewFake(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))}
	f.wf, err = st.CreateWorkflow(ctx, store.Workflow{WorkspaceID: ws.ID, Name: "w", Draft: json.RawMessage(graph)})
	if err != nil {
		t.Fatal(err)
	}
	f.publish(t, graph)
	if f.agent, err = st.CreateAgent(ctx, store.Agent{WorkspaceID: ws.ID, Name: "a", WorkflowID: f.wf.ID}); err != nil {
		t.Fatal(err)
	}
	eng, _ := engine.New(engine.Options{Clock: f.clock})
	f.svc = &turn.Service{Store: st, Engine: eng, Registry: node.Default, Clock: f.clock, Mock: true}
	return f
}

func (f *fixture) publish(t testing.TB, graph string) {
	t.Helper()
	if _, err := f.st.Publish(context.Background(), f.ws, f.wf.ID, json.RawMessage(graph), "test"); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) session(t testing.TB) store.Session {
	t.Helper()
	s, err := f.st.CreateSession(context.Background(), store.Session{WorkspaceID: f.ws, AgentID: f.agent.ID, Status: store.SessionOpen})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (f *fixture) send(t testing.TB, s store.Session, text string) turn.TurnResult {
	t.Helper()
	res, err := f.svc.Send(context.Background(), f.ws, s.ID, text)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const askRole = `{"nodes":[{"id":"start","type":"start"},
{"id":"build","type":"set_variable","config":{"assignments":[{"var":"roles","value":[{"id":"1","label":"Solution Architect"},{"id":"2","label":"Software Engineer"},{"id":"3","label":"Data Scientist"}]},{"var":"asked","value":"{{userMessage}}"}]}},
{"id":"ask","type":"await_reply","config":{"promptTemplate":"Which role?","saveAs":"chosen","matchMode":"options","optionsFrom":"roles","expiresAfterSeconds":3600}},
{"id":"yes","type":"response","config":{"messageTemplate":"{{chosen.label}} ({{chosen.id}}, slot {{chosen.slot}}); first asked with {{asked}}; now {{userMessage}}"}},
{"id":"no","type":"response","config":{"messageTemplate":"no match for {{chosen}}"}}],
"edges":[{"id":"e1","source":"start","target":"build"},{"id":"e2","source":"build","target":"ask"},
{"id":"e3","source":"ask","target":"yes","label":"answered"},{"id":"e4","source":"ask","target":"no","label":"unanswered"}]}`

func TestResumeSeedsSnapshotFactsAndAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t, askRole)
	s := f.session(t)
	first := f.send(t, s, "hello")
	if first.Runs[0].Status != vocab.RunAwaitingInput {
		t.Fatalf("turn 1 %+v", first.Runs[0])
	}
	pending, err := f.st.PendingWaits(context.Background(), f.ws, s.ID, awaitreply.Kind, f.clock.Now())
	if err != nil || len(pending) != 1 || pending[0].NodeID != "ask" || !pending[0].ExpiresAt.Equal(f.clock.Now().Add(time.Hour)) {
		t.Fatalf("pending %+v, %v", pending, err)
	}
	if st, err := awaitreply.DecodeState(pending[0].State); err != nil || st.SaveAs != "chosen" || len(st.Options) != 3 {
		t.Fatalf("pending state %s: %+v, %v", pending[0].State, st, err)
	}
	second := f.send(t, s, "I'd like the Solution Architect role")
	if second.Runs[0].ResumedFromRunID != first.Runs[0].ID {
		t.Fatalf("resumedFromRunId %d", second.Runs[0].ResumedFromRunID)
	}
	if got := second.Messages[0].Text; got != "Solution Architect (1, slot 1); first asked with hello; now I'd like the Solution Architect role" {
		t.Fatalf("reply %q", got)
	}
	if p, _ := f.st.PendingWaits(context.Background(), f.ws, s.ID, awaitreply.Kind, f.clock.Now()); len(p) != 0 {
		t.Fatalf("the answered wait is still pending: %+v", p)
	}
}

// In free_text mode every reply is the answer, saved as text.
func TestFreeTextResume(t *testing.T) {
	t.Parallel()
	g := `{"nodes":[{"id":"s","type":"start"},{"id":"q","type":"await_reply","config":{"promptTemplate":"Your order number?","saveAs":"orderNo"}},
{"id":"r","type":"response","config":{"messageTemplate":"Looking up {{orderNo}} for session {{sessionId}}"}}],
"edges":[{"id":"e1","source":"s","target":"q"},{"id":"e2","source":"q","target":"r","label":"answered"}]}`
	f := newFixture(t, g)
	s := f.session(t)
	if res := f.send(t, s, "hi"); res.Messages[0].Text != "Your order number?" || !res.Messages[0].TurnComplete {
		t.Fatalf("question %+v", res.Messages)
	}
	res := f.send(t, s, "ORD-48213")
	if want := fmt.Sprintf("Looking up ORD-48213 for session %d", s.ID); res.Messages[0].Text != want {
		t.Fatalf("reply %q, want %q", res.Messages[0].Text, want)
	}
}

// Expiry is enforced at read time: past it the message starts a fresh run,
// not the unanswered edge, and nothing was said unprompted.
func TestExpiredWaitStartsFresh(t *testing.T) {
	t.Parallel()
	f := newFixture(t, askRole)
	s := f.session(t)
	f.send(t, s, "hello")
	f.clock.Advance(time.Hour + time.Second)
	res := f.send(t, s, "1")
	if res.Runs[0].ResumedFromRunID != 0 || res.Runs[0].Status != vocab.RunAwaitingInput {
		t.Fatalf("run %+v", res.Runs[0])
	}
	msgs, _ := f.st.Messages(context.Background(), f.ws, s.ID)
	if len(msgs) != 4 { // hello, question, 1, question again: nothing unprompted
		t.Fatalf("transcript %+v", msgs)
	}
}

func TestEndSessionCancelsWait(t *testing.T) {
	t.Parallel()
	f := newFixture(t, askRole)
	s := f.session(t)
	f.send(t, s, "hello")
	if err := f.st.EndSession(context.Background(), f.ws, s.ID); err != nil {
		t.Fatal(err)
	}
	if p, _ := f.st.PendingWaits(context.Background(), f.ws, 0, awaitreply.Kind, f.clock.Now()); len(p) != 0 {
		t.Fatalf("pending after end %+v", p)
	}
	if _, err := f.svc.Send(context.Background(), f.ws, s.ID, "1"); !errors.Is(err, turn.ErrSessionEnded) {
		t.Fatalf("send to an ended session: %v", err)
	}
}

// A graph edit that removed the answered edge strands the wait: the reply
// fails with the explicit error rather than guessing.
func TestStrandedWaitFailsTheResume(t *testing.T) {
	t.Parallel()
	f := newFixture(t, askRole)
	s := f.session(t)
	f.send(t, s, "hello")
	f.publish(t, strings.ReplaceAll(askRole, `"ask"`, `"ask2"`))
	res := f.send(t, s, "1")
	run := res.Runs[0]
	if run.Status != vocab.RunFailed || run.Error != `cannot resume await_reply node "ask": the published workflow no longer has that node` || run.ResumedFromRunID == 0 {
		t.Fatalf("run %+v", run)
	}
	if res.Messages[0].Text != turn.DefaultFailureResponse {
		t.Fatalf("messages %+v", res.Messages)
	}
}

// The same, when the edge the reply needs is gone: the stored question was
// options mode, the edited graph asks freely and has no unanswered edge.
func TestStrandedWaitMissingEdge(t *testing.T) {
	t.Parallel()
	f := newFixture(t, askRole)
	s := f.session(t)
	f.send(t, s, "hello")
	edited := strings.Replace(askRole, `"matchMode":"options","optionsFrom":"roles",`, ``, 1)
	edited = strings.Replace(edited, `,{"id":"e4","source":"ask","target":"no","label":"unanswered"}`, `,{"id":"e4","source":"build","target":"no"}`, 1)
	f.publish(t, edited)
	res := f.send(t, s, "none of these")
	if run := res.Runs[0]; run.Status != vocab.RunFailed || run.Error != `cannot resume await_reply node "ask": it has no outgoing edge labeled 'unanswered'` {
		t.Fatalf("run %+v", run)
	}
}

// A newer message interrupts a running turn: it stops before its next
// dispatch as INTERRUPTED, and the new message gets its own turn.
func TestNewerMessageInterrupts(t *testing.T) {
	t.Parallel()
	reg := node.Default.Clone()
	entered := make(chan struct{})
	var once sync.Once
	if err := reg.Replace(&node.Spec{Type: "gate", Routing: node.RouteAll, Build: func(node.BuildInput) (node.Executor, error) {
		return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
			first := false
			once.Do(func() { first = true })
			if first {
				close(entered)
				<-x.Interrupt // the node in flight finishes after the newer message arrives
			}
			return node.Outcome{}, nil
		}), nil
	}}); err != nil {
		t.Fatal(err)
	}
	g := `{"nodes":[{"id":"s","type":"start"},{"id":"g","type":"gate"},{"id":"r","type":"response","config":{"messageTemplate":"done {{userMessage}}"}}],
"edges":[{"id":"e1","source":"s","target":"g"},{"id":"e2","source":"g","target":"r"}]}`
	f := newFixture(t, g)
	f.svc.Registry = reg
	s := f.session(t)
	var first turn.TurnResult
	done := make(chan struct{})
	go func() { first = f.send(t, s, "one"); close(done) }()
	<-entered
	secondDone := make(chan turn.TurnResult)
	go func() { secondDone <- f.send(t, s, "two") }()
	<-done
	second := <-secondDone
	if first.Runs[0].Status != vocab.RunInterrupted || len(first.Messages) != 0 {
		t.Fatalf("first %+v", first.Runs[0])
	}
	if second.Runs[0].Status != vocab.RunCompleted || second.Messages[0].Text != "done two" {
		t.Fatalf("second %+v %+v", second.Runs[0], second.Messages)
	}
}

// TestTranscriptAcrossTurns checks conversationHistory and turnIndex over
// several turns, with a message another Service (a replica, or a process
// that restarted) added in between: each turn sees the whole transcript in
// order, though a Service reads only what is new to it.
func TestTranscriptAcrossTurns(t *testing.T) {
	t.Parallel()
	const graph = `{"nodes":[{"id":"start","type":"start"},
	{"id":"say","type":"response","config":{"messageTemplate":"{{turnIndex}}:{{#each conversationHistory}}{{role}}={{text}};{{/each}}"}}],
	"edges":[{"id":"e1","source":"start","target":"say"}]}`
	f := newFixture(t, graph)
	s := f.session(t)
	if got := f.send(t, s, "a").Messages[0].Text; got != "0:user=a;" {
		t.Fatalf("turn 1: %q", got)
	}
	if got := f.send(t, s, "b").Messages[0].Text; got != "1:user=a;assistant=0:user=a;;user=b;" {
		t.Fatalf("turn 2: %q", got)
	}
	other := &turn.Service{Store: f.st, Engine: f.svc.Engine, Registry: f.svc.Registry, Clock: f.svc.Clock}
	if got := sendVia(t, other, f, s, "c").Messages[0].Text; !strings.HasPrefix(got, "2:user=a;") || !strings.HasSuffix(got, ";user=c;") {
		t.Fatalf("turn 3 on another service: %q", got)
	}
	got := f.send(t, s, "d").Messages[0].Text
	want := "3:user=a;assistant=0:user=a;;user=b;assistant=1:user=a;assistant=0:user=a;;user=b;;user=c;assistant="
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ";user=d;") || strings.Count(got, "user=c;") != 2 {
		t.Fatalf("turn 4 back on the first service:\n got %q\nwant %q…;user=d;", got, want)
	}
}

func sendVia(t *testing.T, svc *turn.Service, f *fixture, s store.Session, text string) turn.TurnResult {
	t.Helper()
	res, err := svc.Send(context.Background(), f.ws, s.ID, text)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A task runs from start with no user message; on a session whose question
// waits for the user it is refused before anything runs or is stored.
func TestTaskRefusedWhileAQuestionIsOpen(t *testing.T) {
	t.Parallel()
	f := newFixture(t, askRole)
	s := f.session(t)
	ctx := context.Background()
	res, err := f.svc.Task(ctx, f.ws, s.ID)
	if err != nil || len(res.Runs) != 1 || res.Runs[0].Status != vocab.RunAwaitingInput || res.UserMessage.ID != 0 {
		t.Fatalf("a task on a fresh session: %+v, %v", res, err)
	}
	before, _ := f.st.RunsBySession(ctx, f.ws, s.ID)
	if _, err := f.svc.Task(ctx, f.ws, s.ID); !errors.Is(err, turn.ErrQuestionOpen) {
		t.Fatalf("a task while the question is open: %v, want ErrQuestionOpen", err)
	}
	after, _ := f.st.RunsBySession(ctx, f.ws, s.ID)
	if len(after) != len(before) {
		t.Errorf("the refused task left a run: %d runs, then %d", len(before), len(after))
	}
	// The user's reply still answers the question.
	if got := f.send(t, s, "2").Runs[0]; got.ResumedFromRunID != res.Runs[0].ID {
		t.Errorf("the reply after a refused task: %+v", got)
	}
}
