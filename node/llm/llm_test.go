package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/models/modeltest"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
	"github.com/wetel/wetel/vocab"
)

// llmGraph is start → llm "ask" → ok (says {{out}}) / sorry (says the code).
func llmGraph(cfg string) string {
	return fmt.Sprintf(`{"nodes":[
		{"id":"s","type":"start","label":"s","config":{}},
		{"id":"ask","type":"llm","label":"ask","config":%s},
		{"id":"ok","type":"response","label":"ok","config":{"messageTemplate":"ok {{out}}"}},
		{"id":"sorry","type":"response","label":"sorry","config":{"messageTemplate":"{{_lastNodeErrorCode}}|{{_lastNodeErrorPublic}}"}}],
	"edges":[{"id":"e1","source":"s","target":"ask"},
		{"id":"e2","source":"ask","target":"ok","label":"success"},
		{"id":"e3","source":"ask","target":"sorry","label":"failure"}]}`, cfg)
}

func plan(t testing.TB, doc string) *engine.Plan {
	t.Helper()
	g, err := graph.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if errs := graph.CheckSave(g, node.Default); len(errs) > 0 {
		t.Fatalf("save refused: %v", errs)
	}
	p, err := engine.Compile(g, node.Default)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// services holds a client over the fakes, one provider each serving m and m2.
func services(t testing.TB, fakes ...*modeltest.Server) *node.Services {
	t.Helper()
	cfg := models.Config{DefaultModel: "m"}
	for i, f := range fakes {
		cfg.Providers = append(cfg.Providers, models.Provider{Name: fmt.Sprintf("p%d", i+1), BaseURL: f.URL, APIKey: "sk-test-key", Models: []string{"m", "m2"}})
	}
	c, err := models.New(cfg, modeltest.Client(t).HTTP())
	if err != nil {
		t.Fatal(err)
	}
	return node.NewServices(models.ClientKey.With(c))
}

func fixed(a modeltest.Answer) func(modeltest.Request) modeltest.Answer {
	return func(modeltest.Request) modeltest.Answer { return a }
}

func history(msgs ...string) []any {
	out := make([]any, len(msgs))
	for i, m := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		out[i] = map[string]any{"role": role, "text": m}
	}
	return out
}

func run(t testing.TB, p *engine.Plan, in engine.Input) *engine.Result {
	t.Helper()
	eng, _ := engine.New(engine.Options{})
	if in.Vars == nil {
		in.Vars = map[string]any{}
	}
	return eng.Run(context.Background(), p, in)
}

func trace(res *engine.Result) string {
	parts := make([]string, len(res.NodeTrace))
	for i, r := range res.NodeTrace {
		parts[i] = r.NodeID + ":" + r.Status
	}
	return strings.Join(parts, " ")
}

func said(res *engine.Result) string {
	var out []string
	for _, m := range res.Messages {
		out = append(out, m.Text)
	}
	return strings.Join(out, " / ")
}

func row(t testing.TB, res *engine.Result, id string) engine.TraceRow {
	t.Helper()
	for _, r := range res.NodeTrace {
		if r.NodeID == id {
			return r
		}
	}
	t.Fatalf("no row %s: %s", id, trace(res))
	return engine.TraceRow{}
}

// The seed-001 router example, live: its classify node is answered by the model.
func TestSeedRouterExampleRunsLive(t *testing.T) {
	doc, err := os.ReadFile("../../examples/order-status.json")
	if err != nil {
		t.Fatal(err)
	}
	fake := modeltest.New(t, fixed(modeltest.Answer{Text: "general", TokensIn: 30, TokensOut: 1}))
	res := run(t, plan(t, string(doc)), engine.Input{Services: services(t, fake), Vars: map[string]any{"userMessage": "What are your opening hours?"}})
	if res.Status != vocab.RunCompleted || !strings.Contains(trace(res), "classify:COMPLETED dispatch:COMPLETED respond_general:COMPLETED") {
		t.Fatalf("%s %s: %s", res.Status, res.Error, trace(res))
	}
	req := fake.Requests()[0]
	if last := req.Messages[len(req.Messages)-1]; last.Role != "user" || !strings.Contains(last.Content, `Classify this message: "What are your opening hours?"`) {
		t.Errorf("prompt %+v", req.Messages)
	}
	r := row(t, res, "classify")
	if r.TraceDetail == nil || r.Model != "m" || r.Provider != "p1" || r.TokensIn != 30 || r.TokensOut != 1 {
		t.Errorf("row %+v", r.TraceDetail)
	}
}

func TestMessagesSent(t *testing.T) {
	fake := modeltest.New(t, fixed(modeltest.Answer{Text: "fine"}))
	svc := services(t, fake)
	vars := func() map[string]any {
		return map[string]any{"userMessage": "and now?", "conversationHistory": history("hello", "hi, how can I help?", "and now?")}
	}
	agent := node.Agent{ID: 3, Persona: "You are Polly, a helpful parrot.", DefaultModel: "m2"}
	res := run(t, plan(t, llmGraph(`{"promptTemplate":"Answer: {{userMessage}}","outputVar":"out","temperature":0.2,"maxTokens":50}`)),
		engine.Input{Services: svc, Vars: vars(), Agent: agent})
	if said(res) != "ok fine" {
		t.Fatalf("said %q: %s", said(res), trace(res))
	}
	req := fake.Requests()[0]
	var got []string
	for _, m := range req.Messages {
		got = append(got, m.Role+":"+m.Content)
	}
	want := "system:You are Polly, a helpful parrot.|user:hello|assistant:hi, how can I help?|user:and now?|user:Answer: and now?"
	if strings.Join(got, "|") != want {
		t.Errorf("messages\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if req.Model != "m2" || req.MaxTokens != 50 || req.Temperature == nil || *req.Temperature < 0.19 || *req.Temperature > 0.21 {
		t.Errorf("model %s max %d temperature %v", req.Model, req.MaxTokens, req.Temperature)
	}
	// systemPrompt overrides the persona; modelOverride the agent's model.
	run(t, plan(t, llmGraph(`{"promptTemplate":"x","outputVar":"out","systemPrompt":"Be terse, {{userMessage}}","modelOverride":"m"}`)),
		engine.Input{Services: svc, Vars: vars(), Agent: agent})
	req = fake.Requests()[1]
	if req.Messages[0].Content != "Be terse, and now?" || req.Model != "m" {
		t.Errorf("override: %s %+v", req.Model, req.Messages[0])
	}
	// No agent model: the workspace's default.
	run(t, plan(t, llmGraph(`{"promptTemplate":"x","outputVar":"out"}`)), engine.Input{Services: svc, Vars: vars()})
	if req = fake.Requests()[2]; req.Model != "m" || req.Messages[0].Role != "user" {
		t.Errorf("default: %s %+v", req.Model, req.Messages)
	}
}

func TestHistoryIsBounded(t *testing.T) {
	fake := modeltest.New(t, fixed(modeltest.Answer{Text: "fine"}))
	var msgs []string
	for i := 0; i < 60; i++ {
		msgs = append(msgs, fmt.Sprintf("message %d", i))
	}
	big := strings.Repeat("x", 10<<10)
	msgs = append(msgs, big, "short", big, "last")
	run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out"}`)), engine.Input{Services: services(t, fake), Vars: map[string]any{"conversationHistory": history(msgs...)}})
	sent := fake.Requests()[0].Messages
	hist := sent[:len(sent)-1]
	// The newest whole messages that fit 16 KB: the first big one would not.
	if len(hist) != 3 || hist[0].Content != "short" || hist[1].Content != big || hist[2].Content != "last" {
		t.Errorf("%d history messages sent", len(hist))
	}
	fake2 := modeltest.New(t, fixed(modeltest.Answer{Text: "fine"}))
	run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out"}`)), engine.Input{Services: services(t, fake2), Vars: map[string]any{"conversationHistory": history(msgs[:60]...)}})
	sent = fake2.Requests()[0].Messages
	if len(sent) != 21 || sent[0].Content != "message 40" {
		t.Errorf("%d messages sent, first %q", len(sent), sent[0].Content)
	}
}

func TestStructuredOutput(t *testing.T) {
	schema := `{"type":"object","properties":{"orderNumber":{"type":"string"}},"required":["orderNumber"]}`
	cfg := `{"promptTemplate":"Extract","outputVar":"out","stream":true,"outputSchema":` + schema + `}`
	t.Run("matches", func(t *testing.T) {
		fake := modeltest.New(t, fixed(modeltest.Answer{Text: "```json\n{\"orderNumber\": \"ORD-1\"}\n```"}))
		res := run(t, plan(t, llmGraph(cfg)), engine.Input{Services: services(t, fake)})
		out, _ := res.Vars["out"].(map[string]any)
		if out["orderNumber"] != "ORD-1" {
			t.Fatalf("out %#v: %s", res.Vars["out"], trace(res))
		}
		req := fake.Requests()[0]
		if req.Stream || req.ResponseFormat == nil || req.ResponseFormat.Type != "json_schema" {
			t.Errorf("request stream %v format %+v", req.Stream, req.ResponseFormat)
		}
		if len(res.Messages) != 1 {
			t.Errorf("a structured reply was said: %q", said(res))
		}
	})
	for name, reply := range map[string]string{"mismatch": `{"orderNumber": 12}`, "not json": `ORD-1`} {
		t.Run(name, func(t *testing.T) {
			fake := modeltest.New(t, fixed(modeltest.Answer{Text: reply}))
			res := run(t, plan(t, llmGraph(cfg)), engine.Input{Services: services(t, fake)})
			if said(res) != "INVALID_DATA|The information could not be processed." || trace(res) != "s:COMPLETED ask:FAILED_HANDLED sorry:COMPLETED" {
				t.Errorf("said %q: %s", said(res), trace(res))
			}
			if _, ok := res.Vars["out"]; ok {
				t.Error("the raw reply was written to outputVar")
			}
			if strings.Contains(res.Vars["_lastNodeError"].(string), "sk-test-key") {
				t.Error("the API key reached _lastNodeError")
			}
		})
	}
}

func TestModelOutsideCatalogTakesFailure(t *testing.T) {
	fake := modeltest.New(t, fixed(modeltest.Answer{Text: "never"}))
	res := run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out","modelOverride":"gpt-9"}`)), engine.Input{Services: services(t, fake)})
	if said(res) != "REJECTED|The service did not accept the request." || len(fake.Requests()) != 0 {
		t.Errorf("said %q, %d requests", said(res), len(fake.Requests()))
	}
	if msg := res.Vars["_lastNodeError"].(string); !strings.Contains(msg, `"gpt-9" is not allowed`) {
		t.Errorf("error %q", msg)
	}
}

func TestFallbackOnTheTraceRow(t *testing.T) {
	busy := modeltest.New(t, fixed(modeltest.Answer{Status: 429, RetryAfter: "2"}))
	down := modeltest.New(t, fixed(modeltest.Answer{Status: 502}))
	good := modeltest.New(t, fixed(modeltest.Answer{Text: "hi", TokensIn: 9, TokensOut: 2}))
	res := run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out"}`)), engine.Input{Services: services(t, busy, down, good)})
	b, _ := json.Marshal(row(t, res, "ask"))
	for _, want := range []string{`"model":"m"`, `"provider":"p3"`, `"tokensIn":9`, `"tokensOut":2`,
		`"fallbacks":[{"provider":"p1","errorClass":"RATE_LIMITED","httpStatus":429},{"provider":"p2","errorClass":"UPSTREAM_ERROR","httpStatus":502}]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("row %s lacks %s", b, want)
		}
	}
	if strings.Contains(string(b), `"p"`) || strings.Contains(string(b), "hi") {
		t.Errorf("row carries prompt or reply: %s", b)
	}
	// All gave up: the failure edge, with the last one's class.
	res = run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out"}`)), engine.Input{Services: services(t, busy, down)})
	if said(res) != "UPSTREAM_ERROR|The service had a problem handling the request." {
		t.Errorf("said %q", said(res))
	}
	if r := row(t, res, "ask"); r.TraceDetail == nil || len(r.Fallbacks) != 1 || r.Provider != "" {
		t.Errorf("failed row %+v", r.TraceDetail)
	}
}

// events records a run's message events in order.
type events struct {
	mu  sync.Mutex
	got []string
}

func (e *events) Observe(ev engine.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch ev.Kind {
	case engine.EventMessageChunk:
		e.got = append(e.got, "chunk:"+ev.Message.Text)
	case engine.EventMessage:
		e.got = append(e.got, "whole:"+ev.Message.Text)
	}
}

func TestStreaming(t *testing.T) {
	fake := modeltest.New(t, fixed(modeltest.Answer{Chunks: []string{"Hel", "lo ", "there"}}))
	ev := &events{}
	res := run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out","stream":true}`)), engine.Input{Services: services(t, fake), Observer: ev})
	if got := strings.Join(ev.got, "|"); got != "chunk:Hel|chunk:lo |chunk:there|whole:Hello there|whole:ok Hello there" {
		t.Errorf("events %s", got)
	}
	if said(res) != "Hello there / ok Hello there" {
		t.Errorf("said %q", said(res))
	}
}

func TestCutStreamSaysNothing(t *testing.T) {
	fake := modeltest.New(t, fixed(modeltest.Answer{Chunks: []string{"Half a "}, Cut: true}))
	ev := &events{}
	res := run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out","stream":true}`)), engine.Input{Services: services(t, fake), Observer: ev})
	if said(res) != "UPSTREAM_ERROR|The service had a problem handling the request." {
		t.Errorf("said %q", said(res))
	}
	if strings.Join(ev.got, "|") != "chunk:Half a |whole:UPSTREAM_ERROR|The service had a problem handling the request." {
		t.Errorf("events %v", ev.got)
	}
}

func TestInterruptCancelsTheStream(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	fake := modeltest.New(t, fixed(modeltest.Answer{Chunks: []string{"first "}, Hang: true, Release: release}))
	stop := make(chan struct{})
	var once sync.Once
	obs := engine.ObserverFunc(func(e engine.Event) {
		if e.Kind == engine.EventMessageChunk {
			once.Do(func() { close(stop) }) // a newer message arrives mid-stream
		}
	})
	res := run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out","stream":true}`)), engine.Input{Services: services(t, fake), Observer: obs, Interrupt: stop})
	if res.Status != vocab.RunInterrupted || len(res.Messages) != 0 || trace(res) != "s:COMPLETED ask:FAILED" {
		t.Errorf("%s, said %q: %s", res.Status, said(res), trace(res))
	}
}

func TestNoModelHere(t *testing.T) {
	res := run(t, plan(t, llmGraph(`{"promptTemplate":"p","outputVar":"out"}`)), engine.Input{})
	if said(res) != "UNKNOWN|Something went wrong with that step." || !strings.Contains(res.Vars["_lastNodeError"].(string), "no language model is configured") {
		t.Errorf("said %q: %v", said(res), res.Vars["_lastNodeError"])
	}
}

func TestSaveRefuses(t *testing.T) {
	spec, _ := node.Default.Lookup("llm")
	for cfg, want := range map[string]string{
		`{"promptTemplate":"p","outputVar":"o","knowledgeBaseId":4}`:                    "knowledgeBaseId: knowledge bases are not available yet",
		`{"promptTemplate":"p","outputVar":"o","outputSchema":{"type":"no-such-type"}}`: "outputSchema: is not a valid JSON Schema",
		`{"promptTemplate":"p","outputVar":"o","outputSchema":{"$ref":"http://x/y"}}`:   "outputSchema: is not a valid JSON Schema",
	} {
		var m map[string]any
		_ = json.Unmarshal([]byte(cfg), &m)
		errs := node.ValidateConfig(spec, m)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if !strings.Contains(strings.Join(got, "; "), want) {
			t.Errorf("%s: %v, want %q", cfg, got, want)
		}
	}
}
