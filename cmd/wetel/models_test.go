package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/models/modeltest"
	"github.com/wetel/wetel/server"
)

// TestMain keeps the developer's own model settings out of the tests:
// with them, an llm node would call a real provider.

// writeWorkspace writes a workspace file naming the fake as its provider.
func writeWorkspace(t *testing.T, baseURL string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "workspace.yaml")
	doc := "modelProviders:\n  - {name: local, baseUrl: \"" + baseURL + "\", models: [llama3.2]}\ndefaultModel: llama3.2\n"
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// wetel run calls the workspace file's model when not in mock mode.
func TestRunCallsTheWorkspaceModel(t *testing.T) {
	t.Parallel()
	fake := modeltest.New(t, func(modeltest.Request) modeltest.Answer {
		return modeltest.Answer{Text: "general", TokensIn: 17, TokensOut: 1}
	})
	ws := writeWorkspace(t, fake.URL)
	r := wetel(t, "run", "../../examples/order-status.json", "--workspace", ws, "--allow-host", "127.0.0.1", "--message", "hello there")
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	var doc runDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.stdout, `"tokensIn": 17`) || !strings.Contains(r.stdout, `"provider": "local"`) || strings.Contains(r.stdout, "Here's your order status") {
		t.Errorf("output:\n%s", r.stdout)
	}
	if got := fake.Requests(); len(got) != 1 || got[0].Model != "llama3.2" {
		t.Errorf("requests %+v", got)
	}
	// Without the allowlist the guard refuses the local provider, and says so.
	r = wetel(t, "run", "../../examples/order-status.json", "--workspace", ws, "--message", "hello there")
	if r.code != 3 || !strings.Contains(r.stdout, `"errorClass": "UNREACHABLE"`) || !strings.Contains(r.stdout, "add it to the allowlist") {
		t.Errorf("without --allow-host: exit %d\n%s", r.code, r.stdout)
	}
}

// wetel chat --graph prints a streamed reply as it arrives, once.
func TestChatPrintsTheStream(t *testing.T) {
	t.Parallel()
	fake := modeltest.New(t, func(modeltest.Request) modeltest.Answer {
		return modeltest.Answer{Chunks: []string{"Tokens ", "as they ", "come."}}
	})
	ws := writeWorkspace(t, fake.URL)
	graph := filepath.Join(t.TempDir(), "stream.json")
	_ = os.WriteFile(graph, []byte(`{"nodes":[{"id":"s","type":"start"},
		{"id":"a","type":"llm","config":{"promptTemplate":"{{userMessage}}","outputVar":"r","stream":true}}],
		"edges":[{"id":"e","source":"s","target":"a"}]}`), 0o600)
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"chat", "--graph", graph, "--workspace", ws, "--allow-host", "127.0.0.1"}, strings.NewReader("hi\n\n"), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if got := out.String(); strings.Count(got, "Tokens as they come.") != 1 {
		t.Errorf("chat printed:\n%s", got)
	}
}

// wetel apply declares model providers, in order, and the model settings,
// idempotently.
func TestApplyModels(t *testing.T) {
	t.Parallel()
	const key = "wtl_apply_models_key_0123456789a"
	url := serveForTest(t, key)
	file := filepath.Join(t.TempDir(), "workspace.yaml")
	write := func(doc string) {
		if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	apply := func() string {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"apply", file, "--server", url, "--key", key}, nil, &out, &errOut); code != 0 {
			t.Fatalf("apply exited %d: %s", code, errOut.String())
		}
		return out.String()
	}
	write(`modelProviders:
  - {name: local, baseUrl: "http://8.8.4.4:11434/v1", models: [llama3.2, nomic-embed-text]}
  - {name: cloud, baseUrl: "https://api.openai.example/v1", apiKey: "sk-apply-secret-0123456789", models: [gpt-4o-mini]}
defaultModel: llama3.2
embeddingModel: nomic-embed-text
modelPrices: {gpt-4o-mini: {in: 0.15, out: 0.6}}
dailyTokenBudget: 2000000
`)
	first := apply()
	for _, want := range []string{`model provider "local": created`, `model provider "cloud": created`, "model settings: updated"} {
		if !strings.Contains(first, want) {
			t.Errorf("first apply did not say %q:\n%s", want, first)
		}
	}
	if second := apply(); strings.TrimSpace(second) != "no changes" {
		t.Errorf("second apply:\n%s", second)
	}
	// Swapping the order swaps the fallback order.
	write(`modelProviders:
  - {name: cloud, baseUrl: "https://api.openai.example/v1", apiKey: "sk-apply-secret-0123456789", models: [gpt-4o-mini]}
  - {name: local, baseUrl: "http://8.8.4.4:11434/v1", models: [llama3.2, nomic-embed-text]}
`)
	apply()
	var have struct {
		ModelProviders []struct {
			Name, APIKey string
			Position     int
		}
	}
	if err := client.New(url, key).Do(context.Background(), `{ modelProviders { name apiKey position } }`, nil, &have); err != nil {
		t.Fatal(err)
	}
	if len(have.ModelProviders) != 2 || have.ModelProviders[0].Name != "cloud" || strings.Contains(have.ModelProviders[0].APIKey, "apply-secret") {
		t.Errorf("providers %+v", have.ModelProviders)
	}
	if third := apply(); strings.TrimSpace(third) != "no changes" {
		t.Errorf("apply after the reorder:\n%s", third)
	}
}

// wetel chat --server prints a streamed reply as its pieces arrive, once.
func TestChatWithServerPrintsTheStream(t *testing.T) {
	t.Parallel()
	fake := modeltest.New(t, func(modeltest.Request) modeltest.Answer {
		return modeltest.Answer{Chunks: []string{"Streamed ", "from the ", "server."}}
	})
	const key = "wtl_chat_stream_key_0123456789ab"
	env := map[string]string{"OPENAI_BASE_URL": fake.URL, "WETEL_DEFAULT_MODEL": "m"}
	url := serveForTestWith(t, server.Config{BootstrapKey: key, AllowHosts: "127.0.0.1", Getenv: func(k string) string { return env[k] }})
	c := client.New(url, key)
	var wf struct{ CreateWorkflow struct{ ID int } }
	graph := `{"nodes":[{"id":"s","type":"start"},{"id":"a","type":"llm","config":{"promptTemplate":"{{userMessage}}","outputVar":"r","stream":true}}],"edges":[{"id":"e","source":"s","target":"a"}]}`
	if err := c.Do(context.Background(), `mutation($g: JSON!) { createWorkflow(input: {name: "s", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf); err != nil {
		t.Fatal(err)
	}
	if err := c.Do(context.Background(), `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil); err != nil {
		t.Fatal(err)
	}
	var agent struct{ CreateAgent struct{ ID int64 } }
	if err := c.Do(context.Background(), `mutation($w: Int!) { createAgent(input: {name: "s", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &agent); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	args := []string{"chat", "--server", url, "--key", key, "--agent", strconv.FormatInt(agent.CreateAgent.ID, 10)}
	if code := run(context.Background(), args, strings.NewReader("hi\n\n"), &out, &errOut); code != 0 {
		t.Fatalf("chat exited %d: %s", code, errOut.String())
	}
	if got := out.String(); strings.Count(got, "Streamed from the server.") != 1 {
		t.Errorf("chat printed:\n%s", got)
	}
}

func TestPrintEventStreams(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	var streamed strings.Builder
	said := make(chan struct{}, 1)
	for _, ev := range []string{`{"text":"Hel","isFinal":false}`, `{"text":"lo.","isFinal":false}`, `{"text":"Hello.","isFinal":true}`, `{"text":"Next.","isFinal":true}`} {
		printEvent(&out, client.Event{Type: "Message", Data: json.RawMessage(ev)}, said, &streamed)
	}
	if got := out.String(); got != "\nHello.\n\nNext.\n" {
		t.Errorf("printed %q", got)
	}
}
