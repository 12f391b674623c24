package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

// pdfGraph renders the user's message into a brochure and says the
// artifact's id.
const pdfGraph = `{"nodes":[{"id":"start","type":"start"},
 {"id":"set","type":"set_variable","config":{"assignments":[{"var":"days","value":[
   {"heading":"Ημέρα 1 — Αθήνα","body":"Москва и {{userMessage}}","bullets":["Café","Ακρόπολη"]}]}]}},
 {"id":"pdf","type":"pdf_export","config":{"sectionsVar":"days","layout":"brochure","title":"Trip “{{userMessage}}”","outputVar":"pdf"}},
 {"id":"say","type":"response","config":{"messageTemplate":"{{pdf.artifactId}}"}}],
 "edges":[{"id":"e1","source":"start","target":"set"},{"id":"e2","source":"set","target":"pdf"},{"id":"e3","source":"pdf","target":"say"}]}`

// TestArtifactsEndToEnd: a pdf_export node run by a turn stores a PDF that
// artifact(id) describes and GET /api/artifacts/{id} serves as a download,
// to its own workspace only.
func TestArtifactsEndToEnd(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "pdf", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(pdfGraph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "pdf", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var ss struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &ss)
	turn := send(t, ts, ss.StartSession.ID, "Lisbon")
	if len(turn.SendMessage.Runs) != 1 || turn.SendMessage.Runs[0].Status != "COMPLETED" || len(turn.SendMessage.Messages) != 1 {
		t.Fatalf("turn %+v", turn)
	}
	id, err := strconv.Atoi(turn.SendMessage.Messages[0].Text)
	if err != nil {
		t.Fatalf("the reply %q is not an artifact id", turn.SendMessage.Messages[0].Text)
	}

	var meta struct {
		Artifact struct {
			ID                           int
			Kind, Name, ContentType, URL string
			Size                         int
			CreatedAt                    string
		}
	}
	do(t, ts.c, `query($id: Int!) { artifact(id: $id) { id kind name contentType size createdAt url } }`, map[string]any{"id": id}, &meta)
	a := meta.Artifact
	if a.ID != id || a.Kind != "pdf" || a.Name != "Trip-Lisbon.pdf" || a.ContentType != "application/pdf" ||
		a.Size < 1000 || a.CreatedAt == "" || a.URL != fmt.Sprintf("/api/artifacts/%d", id) {
		t.Errorf("artifact = %+v", a)
	}

	resp, body := get(t, ts.url+a.URL, testKey)
	if resp.StatusCode != http.StatusOK || len(body) != a.Size || !strings.HasPrefix(string(body), "%PDF-") {
		t.Fatalf("GET %s: HTTP %d, %d bytes", a.URL, resp.StatusCode, len(body))
	}
	if bin, err := exec.LookPath("pdftotext"); err == nil {
		cmd := exec.Command(bin, "-enc", "UTF-8", "-", "-")
		cmd.Stdin = bytes.NewReader(body)
		text, err := cmd.Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		for _, w := range []string{"Ημέρα 1 — Αθήνα", "Москва и Lisbon", "Café", "Trip “Lisbon”"} {
			if !strings.Contains(string(text), w) {
				t.Errorf("the served PDF's text lacks %q:\n%s", w, text)
			}
		}
	}
	for h, want := range map[string]string{
		"Content-Type":           "application/pdf",
		"Content-Disposition":    `attachment; filename="Trip-Lisbon.pdf"; filename*=UTF-8''Trip-Lisbon.pdf`,
		"X-Content-Type-Options": "nosniff",
	} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("%s: %q, want %q", h, got, want)
		}
	}

	// Another workspace sees nothing: NOT_FOUND, as for an id never used.
	other, err := ts.s.store.CreateWorkspace(context.Background(), "Other")
	if err != nil {
		t.Fatal(err)
	}
	otherKey := "wtl_other_artifacts_key_0123456789"
	if _, err := ts.s.store.CreateAPIKey(context.Background(), store.APIKey{WorkspaceID: other.ID, Name: "k", Role: store.RoleOwner,
		Prefix: gql.ShownPrefix(otherKey), Hash: gql.HashKey(otherKey)}); err != nil {
		t.Fatal(err)
	}
	oc := client.New(ts.url, otherKey)
	for _, who := range []struct {
		c   *client.Client
		key string
		id  int
	}{{oc, otherKey, id}, {ts.c, testKey, id + 1000}} {
		wantCode(t, who.c, "NOT_FOUND", `query($id: Int!) { artifact(id: $id) { id name } }`, map[string]any{"id": who.id})
		resp, body := get(t, fmt.Sprintf("%s/api/artifacts/%d", ts.url, who.id), who.key)
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "NOT_FOUND") {
			t.Errorf("GET artifact %d as %s: HTTP %d %s, want 404 NOT_FOUND", who.id, who.key[:10], resp.StatusCode, body)
		}
	}
	if resp, _ := get(t, ts.url+a.URL, ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET without a key: HTTP %d, want 401", resp.StatusCode)
	}
	if resp, _ := get(t, ts.url+"/api/artifacts/x", testKey); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("GET of a malformed id: HTTP %d, want 400", resp.StatusCode)
	}
}

func get(t *testing.T, url, key string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestDisposition(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"trip.pdf", `attachment; filename="trip.pdf"; filename*=UTF-8''trip.pdf`},
		{"Ταξίδι.pdf", `attachment; filename="artifact.pdf"; filename*=UTF-8''%CE%A4%CE%B1%CE%BE%CE%AF%CE%B4%CE%B9.pdf`},
		{"a\"b\r\nX-Evil: 1;.pdf", `attachment; filename="a-b-X-Evil-1.pdf"; filename*=UTF-8''a%22b%0D%0AX-Evil%3A%201%3B.pdf`},
	} {
		if got := disposition(c.in); got != c.want {
			t.Errorf("disposition(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
