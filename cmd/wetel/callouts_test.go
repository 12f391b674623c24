package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/wetel/wetel/workspace"
)

// claimsPartner is a claims API on a loopback port that records what it got.
type claimsPartner struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []string
	auth []string
}

func newClaimsPartner(t *testing.T) *claimsPartner {
	t.Helper()
	p := &claimsPartner{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p.mu.Lock()
		p.got = append(p.got, r.Method+" "+r.URL.RequestURI()+" "+string(body))
		p.auth = append(p.auth, r.Header.Get("Authorization"))
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"reference":"CLM-77"}`))
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// liveBoundedRetry writes the bounded-retry example without its mock, and
// a workspace file whose custom action 41 is the partner, its token read
// from the environment.
func liveBoundedRetry(t *testing.T, partnerURL string) (graphPath, wsPath string) {
	t.Helper()
	src, err := os.ReadFile("../../examples/bounded-retry.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := regexp.MustCompile(`,\s*"mockError": \{[^}]*\}`).ReplaceAllString(string(src), "")
	// The seed's confirmation reads {{submitResult.reference}}, a mocked
	// shape; a live action's outputVar is {status, headers, data}.
	doc = strings.Replace(doc, "{{submitResult.reference}}", "{{submitResult.data.reference}}", 1)
	dir := t.TempDir()
	graphPath, wsPath = filepath.Join(dir, "claims.json"), filepath.Join(dir, "workspace.yaml")
	ws := fmt.Sprintf(`customActions:
  - {id: 41, name: submit-claim, method: POST, url: "%s/v1/claims?ref={{sessionId}}",
     headers: {Authorization: "Bearer ${E2E_CLAIMS_TOKEN}"}, timeoutMs: 5000}
`, partnerURL)
	if err := os.WriteFile(graphPath, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wsPath, []byte(ws), 0o600); err != nil {
		t.Fatal(err)
	}
	return graphPath, wsPath
}

// `wetel run --workspace FILE --allow-host 127.0.0.1/32` calls the custom
// action for real; without the allowlist the guard refuses the loopback
// partner and the graph's give-up path runs; the token is in no output.
// Not parallel: it sets environment variables.
func TestRunWorkspaceCustomAction(t *testing.T) {
	const token = "claims-e2e-token-5f1c"
	t.Setenv("E2E_CLAIMS_TOKEN", token)
	t.Setenv("WETEL_OUTBOUND_ALLOW", "")
	p := newClaimsPartner(t)
	graphPath, wsPath := liveBoundedRetry(t, p.srv.URL)

	r := wetel(t, "run", graphPath, "--workspace", wsPath, "--allow-host", "127.0.0.1/32", "--message", "please file my claim")
	d := decodeRun(t, r)
	run := d.Turns[0].Runs[0]
	if run.Status != "COMPLETED" || trace(run.NodeTrace) != "n_start:COMPLETED n_submit:COMPLETED n_confirm:COMPLETED" {
		t.Fatalf("status %s, trace %s", run.Status, trace(run.NodeTrace))
	}
	if msgs := d.Turns[0].Messages; len(msgs) != 1 || msgs[0].Text != "Done. Your claim reference is CLM-77." {
		t.Fatalf("messages %+v", msgs)
	}
	p.mu.Lock()
	got, auth := append([]string(nil), p.got...), append([]string(nil), p.auth...)
	p.mu.Unlock()
	if len(got) != 1 || got[0] != "POST /v1/claims?ref=1 " || auth[0] != "Bearer "+token {
		t.Fatalf("partner got %q with %q", got, auth)
	}

	// The same through WETEL_OUTBOUND_ALLOW instead of the flag.
	t.Setenv("WETEL_OUTBOUND_ALLOW", "127.0.0.1")
	if d := decodeRun(t, wetel(t, "run", graphPath, "--workspace", wsPath, "--message", "again")); d.Turns[0].Runs[0].Status != "COMPLETED" || len(d.Turns[0].Messages) != 1 {
		t.Fatalf("with %s: %+v", "WETEL_OUTBOUND_ALLOW", d.Turns[0])
	}

	// Without the allowlist the loopback partner is refused before sending:
	// UNREACHABLE (no service answered), marked refused and never retried,
	// so each visit makes one attempt and sends nothing.
	t.Setenv("WETEL_OUTBOUND_ALLOW", "")
	r = wetel(t, "run", graphPath, "--workspace", wsPath, "--message", "please file my claim")
	d = decodeRun(t, r)
	run = d.Turns[0].Runs[0]
	want := "n_start:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED " +
		"n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:VISIT_LIMIT_REACHED n_give_up:COMPLETED"
	if trace(run.NodeTrace) != want {
		t.Fatalf("trace %s", trace(run.NodeTrace))
	}
	row := run.NodeTrace[1]
	if row["errorClass"] != "UNREACHABLE" || row["retryOutcome"] != "refused" || row["error"] != nil {
		t.Errorf("row %v", row)
	}
	if p.mu.Lock(); len(p.got) != 2 {
		t.Errorf("the partner got %d requests, want the 2 above", len(p.got))
	}
	p.mu.Unlock()
	if strings.Contains(r.stdout+r.stderr, token) {
		t.Errorf("the token leaked into the output")
	}
}

func TestRunAllowHostErrorsNameTheEntry(t *testing.T) {
	t.Parallel()
	r := wetel(t, "run", "../../examples/bounded-retry.json", "--allow-host", "127.0.0.1/32", "--allow-host", "169.254.169.254")
	if r.code != 2 || !strings.Contains(r.stderr, `--allow-host: allowlist entry "169.254.169.254": 169.254.169.254 is a cloud metadata service, which hands out this host's credentials; write "169.254.169.254!" to allow it anyway`) {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}

// A webhook in `wetel run` calls out; an async one is sent before the
// command exits.
func TestRunWebhooks(t *testing.T) {
	t.Parallel()
	p := newClaimsPartner(t)
	graph := fmt.Sprintf(`{"nodes":[{"id":"s","type":"start","config":{}},
		{"id":"get","type":"webhook","config":{"url":"%[1]s/status/{{userMessage}}","method":"GET","outputVar":"st"}},
		{"id":"tell","type":"webhook","config":{"url":"%[1]s/hooks","bodyTemplate":"{\"ref\":\"{{st.data.reference}}\"}","async":true}},
		{"id":"r","type":"response","config":{"messageTemplate":"{{st.status}} {{st.data.reference}}"}}],
	"edges":[{"id":"e1","source":"s","target":"get"},{"id":"e2","source":"get","target":"tell"},{"id":"e3","source":"tell","target":"r"}]}`, p.srv.URL)
	path := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(path, []byte(graph), 0o600); err != nil {
		t.Fatal(err)
	}
	d := decodeRun(t, wetel(t, "run", path, "--allow-host", "127.0.0.1", "--message", "ORD 1"))
	if msgs := d.Turns[0].Messages; len(msgs) != 1 || msgs[0].Text != "200 CLM-77" {
		t.Fatalf("messages %+v, trace %s", msgs, trace(d.Turns[0].Runs[0].NodeTrace))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.Join(p.got, " | ") != `GET /status/ORD%201  | POST /hooks {"ref":"CLM-77"}` {
		t.Errorf("partner got %q", p.got)
	}
}

// The example graph runs in mock mode, and the example workspace file
// loads, its action URL a valid template.
func TestCalloutExamples(t *testing.T) {
	t.Parallel()
	d := decodeRun(t, wetel(t, "run", "../../examples/claims-callouts.json", "--mock", "--message", "my phone screen cracked"))
	if run := d.Turns[0].Runs[0]; trace(run.NodeTrace) != "start:COMPLETED check_policy:COMPLETED submit:COMPLETED notify:COMPLETED confirm:COMPLETED" {
		t.Fatalf("trace %s", trace(run.NodeTrace))
	}
	if msgs := d.Turns[0].Messages; len(msgs) != 1 || msgs[0].Text != "Your claim CLM-2291 is filed." {
		t.Fatalf("messages %+v", msgs)
	}
	ws, err := workspace.Load("../../examples/claims-workspace.yaml", func(string) (string, bool) { return "tok", true })
	if err != nil {
		t.Fatal(err)
	}
	actions, err := actionList(ws.CustomActions)
	if err != nil || actions[41].Headers["Authorization"] != "Bearer tok" || len(ws.McpConnectors) != 1 {
		t.Fatalf("actions %v, %v", actions, err)
	}
	var graph struct {
		Nodes []struct {
			Config map[string]any `json:"config"`
		} `json:"nodes"`
	}
	raw, _ := os.ReadFile("../../examples/claims-callouts.json")
	if err := json.Unmarshal(raw, &graph); err != nil {
		t.Fatal(err)
	}
	if graph.Nodes[2].Config["customActionId"] != 41.0 || graph.Nodes[1].Config["connectorId"] != 12.0 {
		t.Errorf("the example graph and workspace disagree on ids")
	}
}
