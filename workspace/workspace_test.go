package workspace_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wetel/wetel/workspace"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseWorkspace(t *testing.T) {
	t.Parallel()
	src := `
customActions:
  - {id: 41, name: submit-claim, method: POST, url: "https://claims.example.com/v1/claims",
     headers: {Authorization: "Bearer ${CLAIMS_TOKEN}"}, timeoutMs: 10000}
mcpConnectors:
  - {id: 12, name: orders, transport: stdio, command: ["orders-mcp", "--readonly"]}
  - {id: 13, name: crm, transport: http, url: "https://crm.example.com/mcp"}
agents:
  - {name: shipping, persona: "You are a shipping assistant.", workflow: shipping}
workflows:
  - {name: shipping, file: workflows/shipping.json, publish: true}
knowledgeBases:
  - {name: handbook, documents: [docs/handbook/]}
modelProviders:
  - {name: local, baseUrl: "http://127.0.0.1:11434/v1", apiKey: "${OPENAI_API_KEY}",
     models: [llama3.2, nomic-embed-text]}
defaultModel: llama3.2
embeddingModel: nomic-embed-text
`
	ws, err := workspace.Parse([]byte(src), env(map[string]string{"CLAIMS_TOKEN": "s3cret", "OPENAI_API_KEY": "sk-local"}))
	if err != nil {
		t.Fatal(err)
	}
	a, ok := ws.Action(41)
	if !ok || a.Headers["Authorization"] != "Bearer s3cret" || a.Method != "POST" || len(ws.McpConnectors) != 2 || !ws.Workflows[0].Publish {
		t.Fatalf("parsed %+v", ws)
	}
	m := ws.Models()
	if len(m.Providers) != 1 || m.Providers[0].APIKey != "sk-local" || m.DefaultModel != "llama3.2" || len(m.Catalog()) != 2 {
		t.Fatalf("models %+v", m)
	}
}

func TestWorkspaceErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"unset variable", `customActions: [{id: 1, url: "https://x.example", headers: {A: "${NOPE}"}}]`, "environment variable NOPE is not set"},
		{"unknown field", `customActions: [{id: 1, url: "https://x.example", retries: 3}]`, "field retries not found"},
		{"duplicate id", `customActions: [{id: 1, url: "https://a.example"}, {id: 1, url: "https://b.example"}]`, "customActions[1].id 1 is used twice"},
		{"relative url", `customActions: [{id: 1, url: "/claims"}]`, "customActions[0].url must be an absolute http or https URL"},
		{"bad transport", `mcpConnectors: [{id: 1, transport: carrier-pigeon}]`, "mcpConnectors[0].transport must be stdio or http"},
		{"password in a url", `customActions: [{id: 1, url: "https://u:pw@x.example/a"}]`, "customActions[0].url must not hold credentials (it has a user name or password): send them as a header"},
		{"secret query value", `customActions: [{id: 1, url: "https://x.example/a?api_key=${K}"}]`, `customActions[0].url must not hold credentials (it has the query parameter "api_key")`},
		{"connector url credential", `mcpConnectors: [{id: 1, transport: http, url: "https://x.example/mcp?token=t"}]`, `mcpConnectors[0].url must not hold credentials`},
		{"stdio without command", `mcpConnectors: [{id: 1, transport: stdio}]`, "mcpConnectors[0].command is required for transport stdio"},
		{"provider not http", `modelProviders: [{name: a, baseUrl: "ftp://h/v1", models: [m]}]`, "modelProviders[0].baseUrl: must be an absolute http or https URL"},
		{"model twice", `modelProviders: [{name: a, baseUrl: "http://h/v1", models: [m, m]}]`, `modelProviders[0].models[1]: "m" is named twice`},
		{"default outside catalog", `{modelProviders: [{name: a, baseUrl: "http://h/v1", models: [m]}], defaultModel: x}`, `defaultModel: "x" is not in the catalog`},
		{"unknown provider field", `modelProviders: [{name: a, baseUrl: "http://h/v1", models: [m], key: k}]`, "field key not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := workspace.Parse([]byte(tc.src), env(map[string]string{"K": "k-123"}))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// A workspace file named .json is held to JSON, and its mistakes are
// placed by line and column; YAML would take a trailing comma silently.
func TestLoadJSONWorkspaceGivesLineAndColumn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "workspace.json")
	if err := os.WriteFile(bad, []byte("{\"workflows\": [\n  {\"name\": \"a\", \"file\": \"a.json\"},\n]}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := workspace.Load(bad, env(nil))
	want := "workspace: " + bad + " is not valid JSON: invalid character ']' looking for beginning of value (line 3, column 1)"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(`{"workflows": [{"name": "a", "file": "a.json"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if ws, err := workspace.Load(good, env(nil)); err != nil || len(ws.Workflows) != 1 {
		t.Fatalf("valid JSON workspace: %v, %+v", err, ws)
	}
}
