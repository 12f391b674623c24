package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/models/modeltest"
)

// streamGraph is start → llm (streamed) → nothing else: the node says the reply.
const streamGraph = `{"nodes":[{"id":"start","type":"start"},
 {"id":"answer","type":"llm","config":{"promptTemplate":"Answer: {{userMessage}}","outputVar":"reply","stream":true}}],
 "edges":[{"id":"e1","source":"start","target":"answer"}]}`

// agentOn publishes graph as a workflow and opens a session with an agent
// running it.
func agentOn(t *testing.T, ts *testServer, graph, persona string) int {
	t.Helper()
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "Answerer", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var agent struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!, $p: String) { createAgent(input: {name: "Answerer", persona: $p, workflowId: $w}) { id } }`,
		map[string]any{"w": wf.CreateWorkflow.ID, "p": persona}, &agent)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": agent.CreateAgent.ID}, &s)
	return s.StartSession.ID
}

const secretKey = "sk-live-very-secret-key-0123456789"

func TestModelProvidersOverTheAPI(t *testing.T) {
	t.Parallel()
	fake := modeltest.New(t, func(modeltest.Request) modeltest.Answer {
		return modeltest.Answer{Chunks: []string{"Open ", "nine ", "to five."}, TokensIn: 21, TokensOut: 4}
	})
	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir, AllowHosts: "127.0.0.1", Getenv: func(string) string { return "" }})

	// Bad input is refused, naming the field and rule.
	for _, tc := range []struct{ input, want string }{
		{`{name: "x", baseUrl: "ftp://h/v1", models: ["m"]}`, "baseUrl: must be an absolute http or https URL"},
		{`{name: "x", baseUrl: "http://h/v1", models: ["m", "m"]}`, `models[1]: "m" is named twice`},
		{`{name: "x", baseUrl: "http://h/v1", models: []}`, "models: must list 1 to"},
		{`{name: "x", baseUrl: "http://169.254.169.254/v1", models: ["m"]}`, "baseUrl: "},
	} {
		es := wantCode(t, ts.c, "VALIDATION", `mutation { createModelProvider(input: `+tc.input+`) { id } }`, nil)
		if !strings.Contains(es.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.input, es, tc.want)
		}
	}

	var created struct {
		CreateModelProvider struct {
			ID, Position int
			APIKey       string
		}
	}
	do(t, ts.c, `mutation($u: String!, $k: String) { createModelProvider(input: {name: "local", baseUrl: $u, apiKey: $k, models: ["m", "m-big"]}) { id position apiKey } }`,
		map[string]any{"u": fake.URL, "k": secretKey}, &created)
	if p := created.CreateModelProvider; p.ID != 1 || p.Position != 0 || strings.Contains(p.APIKey, "very-secret") || !strings.HasSuffix(p.APIKey, "6789") {
		t.Fatalf("created %+v", p)
	}
	do(t, ts.c, `mutation { createModelProvider(input: {name: "spare", baseUrl: "http://127.0.0.1:9/v1", models: ["m"], position: 0}) { id } }`, nil, nil)
	wantCode(t, ts.c, "CONFLICT", `mutation { createModelProvider(input: {name: "local", baseUrl: "http://127.0.0.1:9/v1", models: ["m"]}) { id } }`, nil)
	// Fallback order: the spare (unreachable) first was a mistake; move it last.
	do(t, ts.c, `mutation { updateModelProvider(id: 2, input: {position: 1}) { id } }`, nil, nil)
	wantCode(t, ts.c, "VALIDATION", `mutation { updateModelSettings(input: {defaultModel: "gpt-9"}) { defaultModel } }`, nil)
	var settings struct {
		UpdateModelSettings struct {
			DefaultModel    string
			Catalog         []string
			FromEnvironment bool
		}
	}
	do(t, ts.c, `mutation { updateModelSettings(input: {defaultModel: "m"}) { defaultModel catalog fromEnvironment } }`, nil, &settings)
	if s := settings.UpdateModelSettings; s.DefaultModel != "m" || strings.Join(s.Catalog, ",") != "m,m-big" || s.FromEnvironment {
		t.Errorf("settings %+v", s)
	}
	var listed struct {
		ModelProviders []struct {
			ID       int
			Name     string
			APIKey   string
			Position int
		}
	}
	do(t, ts.c, `{ modelProviders { id name apiKey position } }`, nil, &listed)
	if len(listed.ModelProviders) != 2 || listed.ModelProviders[0].Name != "local" || listed.ModelProviders[1].Name != "spare" ||
		strings.Contains(listed.ModelProviders[0].APIKey, "very-secret") {
		t.Errorf("listed %+v", listed.ModelProviders)
	}

	// A member may not see or change them.
	var key struct{ CreateAPIKey struct{ Key string } }
	do(t, ts.c, `mutation { createApiKey(name: "m", role: MEMBER) { key } }`, nil, &key)
	member := client.New(ts.url, key.CreateAPIKey.Key)
	wantCode(t, member, "FORBIDDEN", `{ modelProviders { id } }`, nil)
	wantCode(t, member, "FORBIDDEN", `mutation { deleteModelProvider(id: 1) }`, nil)

	// A streamed turn: chunks with isFinal false as they arrive, then the
	// whole message with isFinal true.
	session := agentOn(t, ts, streamGraph, "You are the opening-hours desk.")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	evs := make(chan client.Event, 100)
	go func() {
		_, _ = ts.c.Events(ctx, int64(session), 0, func(ev client.Event) bool {
			evs <- ev
			return ev.Type != "TurnComplete"
		})
	}()
	time.Sleep(100 * time.Millisecond) // subscribed; anything missed would be replayed anyway
	out := send(t, ts, session, "when are you open?")
	if len(out.SendMessage.Messages) != 1 || out.SendMessage.Messages[0].Text != "Open nine to five." {
		t.Fatalf("turn %+v", out.SendMessage)
	}
	var messages []string
	for done := false; !done; {
		select {
		case ev := <-evs:
			if strings.Contains(string(ev.Data), "very-secret") {
				t.Errorf("event %s carries the API key", ev.Data)
			}
			switch ev.Type {
			case "Message":
				var m struct {
					Text    string
					IsFinal bool
				}
				_ = json.Unmarshal(ev.Data, &m)
				if m.IsFinal {
					messages = append(messages, "whole:"+m.Text)
				} else {
					messages = append(messages, "chunk:"+m.Text)
				}
			case "TurnComplete":
				done = true
			}
		case <-ctx.Done():
			t.Fatalf("no TurnComplete; messages %v", messages)
		}
	}
	if got := strings.Join(messages, "|"); got != "chunk:Open |chunk:nine |chunk:to five.|whole:Open nine to five." {
		t.Errorf("message events %s", got)
	}
	if req := fake.Requests()[0]; req.Messages[0].Content != "You are the opening-hours desk." || req.Authorization != "Bearer "+secretKey {
		t.Errorf("request %+v", req)
	}

	// Tokens per run, and on the trace row.
	var run struct {
		WorkflowRun struct {
			TokensIn, TokensOut int
			NodeTrace           json.RawMessage
		}
	}
	do(t, ts.c, `query($r: Int!) { workflowRun(id: $r) { tokensIn tokensOut nodeTrace } }`, map[string]any{"r": out.SendMessage.Runs[0].ID}, &run)
	if r := run.WorkflowRun; r.TokensIn != 21 || r.TokensOut != 4 || !strings.Contains(string(r.NodeTrace), `"provider":"local"`) || strings.Contains(string(r.NodeTrace), "nine") {
		t.Errorf("run %d/%d %s", r.TokensIn, r.TokensOut, r.NodeTrace)
	}

	// Prometheus counters.
	resp, err := http.Get(ts.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`wetel_model_tokens_total{direction="in",model="m",provider="local"} 21`, `wetel_model_calls_total{model="m",outcome="ok"} 1`, "wetel_model_latency_seconds_count"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	// The key is sealed at rest.
	db, err := os.ReadFile(filepath.Join(dir, "wetel.db"))
	if err == nil && strings.Contains(string(db), "very-secret") {
		t.Error("the API key is stored in clear")
	}

	// Deleting the providers leaves the workspace with no model: the node fails saying so.
	do(t, ts.c, `mutation { deleteModelProvider(id: 1) }`, nil, nil)
	do(t, ts.c, `mutation { deleteModelProvider(id: 2) }`, nil, nil)
	wantCode(t, ts.c, "NOT_FOUND", `mutation { deleteModelProvider(id: 2) }`, nil)
	out = send(t, ts, session, "again?")
	if out.SendMessage.Runs[0].Status != "FAILED" {
		t.Errorf("with no provider: %+v", out.SendMessage)
	}
}

// OPENAI_BASE_URL + WETEL_DEFAULT_MODEL give every workspace without a
// provider of its own a model.
func TestModelFromTheEnvironment(t *testing.T) {
	t.Parallel()
	fake := modeltest.New(t, func(r modeltest.Request) modeltest.Answer { return modeltest.Answer{Text: "general"} })
	env := map[string]string{"OPENAI_BASE_URL": fake.URL, "WETEL_DEFAULT_MODEL": "llama3.2"}
	ts := startServer(t, Config{AllowHosts: "127.0.0.1", Getenv: func(k string) string { return env[k] }})
	var s struct {
		ModelSettings struct {
			DefaultModel    string
			Catalog         []string
			FromEnvironment bool
		}
	}
	do(t, ts.c, `{ modelSettings { defaultModel catalog fromEnvironment } }`, nil, &s)
	if m := s.ModelSettings; !m.FromEnvironment || m.DefaultModel != "llama3.2" || strings.Join(m.Catalog, ",") != "llama3.2" {
		t.Errorf("settings %+v", m)
	}
	doc, err := os.ReadFile("../examples/order-status.json")
	if err != nil {
		t.Fatal(err)
	}
	session := agentOn(t, ts, string(doc), "")
	out := send(t, ts, session, "what are your opening hours?")
	if len(out.SendMessage.Runs) != 1 || out.SendMessage.Runs[0].Status != "COMPLETED" || len(out.SendMessage.Messages) != 1 ||
		strings.Contains(out.SendMessage.Messages[0].Text, "order status") {
		t.Errorf("turn %+v", out.SendMessage)
	}
	if got := fake.Requests(); len(got) != 1 || got[0].Model != "llama3.2" || got[0].Authorization != "" {
		t.Errorf("requests %+v", got)
	}
}

// Prices give each run its cost; a daily token budget, once spent, fails
// the llm node REJECTED with a clear message, down its failure edge.
func TestModelBudget(t *testing.T) {
	t.Parallel()
	fake := modeltest.New(t, func(modeltest.Request) modeltest.Answer {
		return modeltest.Answer{Text: "fine", TokensIn: 900, TokensOut: 100}
	})
	ts := startServer(t, Config{AllowHosts: "127.0.0.1", Getenv: func(string) string { return "" }})
	do(t, ts.c, `mutation($u: String!) { createModelProvider(input: {name: "local", baseUrl: $u, models: ["m"]}) { id } }`, map[string]any{"u": fake.URL}, nil)
	do(t, ts.c, `mutation { updateModelSettings(input: {defaultModel: "m", dailyTokenBudget: 1500, prices: [{model: "m", in: 3, out: 15}]}) { defaultModel } }`, nil, nil)
	wantCode(t, ts.c, "VALIDATION", `mutation { updateModelSettings(input: {prices: [{model: "gpt-9", in: 1, out: 1}]}) { defaultModel } }`, nil)
	graph := `{"nodes":[{"id":"start","type":"start"},
	 {"id":"ask","type":"llm","config":{"promptTemplate":"{{userMessage}}","outputVar":"reply"}},
	 {"id":"ok","type":"response","config":{"messageTemplate":"{{reply}}"}},
	 {"id":"sorry","type":"response","config":{"messageTemplate":"{{_lastNodeErrorCode}}: {{_lastNodeError}}"}}],
	 "edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"ok","label":"success"},{"id":"e3","source":"ask","target":"sorry","label":"failure"}]}`
	session := agentOn(t, ts, graph, "")
	first := send(t, ts, session, "one")
	second := send(t, ts, session, "two")
	third := send(t, ts, session, "three")
	if first.SendMessage.Messages[0].Text != "fine" || second.SendMessage.Messages[0].Text != "fine" {
		t.Fatalf("within the budget: %+v %+v", first.SendMessage, second.SendMessage)
	}
	if got := third.SendMessage.Messages[0].Text; !strings.HasPrefix(got, "REJECTED: ") || !strings.Contains(got, "daily token budget of 1500 is spent (2000 used") {
		t.Errorf("over the budget: %q", got)
	}
	if n := len(fake.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	var run struct{ WorkflowRun struct{ Cost float64 } }
	do(t, ts.c, `query($r: Int!) { workflowRun(id: $r) { cost } }`, map[string]any{"r": first.SendMessage.Runs[0].ID}, &run)
	if run.WorkflowRun.Cost < 0.00419 || run.WorkflowRun.Cost > 0.00421 { // 900 × 3 + 100 × 15 per million
		t.Errorf("run cost %v", run.WorkflowRun.Cost)
	}
	var s struct {
		ModelSettings struct {
			TokensToday int
			SpendToday  float64
			Prices      []struct{ Model string }
		}
	}
	do(t, ts.c, `{ modelSettings { tokensToday spendToday prices { model } } }`, nil, &s)
	if m := s.ModelSettings; m.TokensToday != 2000 || m.SpendToday < 0.0083 || len(m.Prices) != 1 {
		t.Errorf("settings %+v", m)
	}
}

// A newer message interrupts a turn whose model call is streaming: the
// call is cancelled, the run ends INTERRUPTED without its failure edge,
// and the newer message is answered.
func TestNewerMessageCancelsTheModelCall(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	fake := modeltest.New(t, func(r modeltest.Request) modeltest.Answer {
		if strings.Contains(r.Messages[len(r.Messages)-1].Content, "slow") {
			close(asked)
			return modeltest.Answer{Chunks: []string{"Thinking "}, Hang: true}
		}
		return modeltest.Answer{Text: "quick answer"}
	})
	ts := startServer(t, Config{AllowHosts: "127.0.0.1"})
	do(t, ts.c, `mutation($u: String!) { createModelProvider(input: {name: "local", baseUrl: $u, models: ["m"]}) { id } }`, map[string]any{"u": fake.URL}, nil)
	do(t, ts.c, `mutation { updateModelSettings(input: {defaultModel: "m"}) { defaultModel } }`, nil, nil)
	graph := `{"nodes":[{"id":"start","type":"start"},
	 {"id":"ask","type":"llm","config":{"promptTemplate":"{{userMessage}}","outputVar":"reply","stream":true}},
	 {"id":"done","type":"response","config":{"messageTemplate":"(done)"}},
	 {"id":"sorry","type":"response","config":{"messageTemplate":"failure edge taken"}}],
	 "edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"sorry","label":"failure"},
	  {"id":"e3","source":"ask","target":"done","label":"success"}]}`
	session := agentOn(t, ts, graph, "")
	first := make(chan turnOut, 1)
	go func() { first <- send(t, ts, session, "slow question") }()
	select {
	case <-asked:
	case <-time.After(20 * time.Second):
		t.Fatal("the model was never asked")
	}
	second := send(t, ts, session, "never mind")
	var slow turnOut
	select {
	case slow = <-first:
	case <-time.After(20 * time.Second):
		t.Fatal("the first turn did not end")
	}
	if len(slow.SendMessage.Runs) != 1 || slow.SendMessage.Runs[0].Status != "INTERRUPTED" || len(slow.SendMessage.Messages) != 0 {
		t.Errorf("interrupted turn %+v", slow.SendMessage)
	}
	if len(second.SendMessage.Messages) != 2 || second.SendMessage.Messages[0].Text != "quick answer" {
		t.Errorf("newer turn %+v", second.SendMessage)
	}
}
