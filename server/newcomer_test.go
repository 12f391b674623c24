package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/client"
)

// rawResponse is an HTTP answer of /graphql read as a client without our
// Go client would read it.
type rawResponse struct {
	status int
	code   string
	msg    string
}

func post(t *testing.T, url string, header map[string]string, body string) rawResponse {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+"/graphql", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return sendRaw(t, req)
}

func sendRaw(t *testing.T, req *http.Request) rawResponse {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out struct {
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		}
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%d, body is not JSON: %s", resp.StatusCode, b)
	}
	r := rawResponse{status: resp.StatusCode}
	if len(out.Errors) > 0 {
		r.code, r.msg = out.Errors[0].Extensions.Code, out.Errors[0].Message
	}
	return r
}

// Requests a newcomer gets wrong are answered with what to do, under a
// code, never "internal error".
func TestMistakenRequestsAreExplained(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	query := `{"query":"{ agents { id } }"}`
	cases := []struct {
		name   string
		header map[string]string
		status int
		code   string
		says   string
	}{
		{"key without Bearer", map[string]string{"Authorization": testKey, "Content-Type": "application/json"},
			http.StatusUnauthorized, "UNAUTHENTICATED", `must be "Bearer <key>"`},
		{"another scheme", map[string]string{"Authorization": "Basic dXNlcjpwYXNz", "Content-Type": "application/json"},
			http.StatusUnauthorized, "UNAUTHENTICATED", `no "Bearer " prefix`},
		{"curl -d without a Content-Type", map[string]string{"Authorization": "Bearer " + testKey, "Content-Type": "application/x-www-form-urlencoded"},
			http.StatusUnsupportedMediaType, "VALIDATION", `Content-Type must be application/json, not "application/x-www-form-urlencoded"`},
		{"no Content-Type", map[string]string{"Authorization": "Bearer " + testKey},
			http.StatusUnsupportedMediaType, "VALIDATION", "send Content-Type: application/json"},
		{"JSON with a charset", map[string]string{"Authorization": "Bearer " + testKey, "Content-Type": "application/json; charset=utf-8"},
			http.StatusOK, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, ts.url, tc.header, query)
			if r.status != tc.status || r.code != tc.code || !strings.Contains(r.msg, tc.says) {
				t.Fatalf("got %d %s %q, want %d %s saying %q", r.status, r.code, r.msg, tc.status, tc.code, tc.says)
			}
			if strings.Contains(r.msg, testKey) {
				t.Fatalf("the answer repeats the key: %q", r.msg)
			}
		})
	}
	req, _ := http.NewRequest(http.MethodPut, ts.url+"/graphql", strings.NewReader(query))
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Content-Type", "application/json")
	if r := sendRaw(t, req); r.status != http.StatusMethodNotAllowed || r.code != "VALIDATION" || !strings.Contains(r.msg, "POST a JSON body") {
		t.Fatalf("PUT: %+v", r)
	}
}

// Seed 001's authoring step 1: "Create the workflow (name and description
// only)". The draft is empty until updateWorkflow, and publishing it is
// refused for what it lacks.
func TestCreateWorkflowWithNameAndDescriptionOnly(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	var out struct {
		CreateWorkflow struct {
			ID               int
			Draft            json.RawMessage
			PublishedVersion int
		}
	}
	do(t, ts.c, `mutation { createWorkflow(input: {name: "Greeter", description: "Says hello"}) { id draft publishedVersion } }`, nil, &out)
	if string(out.CreateWorkflow.Draft) != `{"nodes":[],"edges":[]}` || out.CreateWorkflow.PublishedVersion != 0 {
		t.Fatalf("created %+v", out.CreateWorkflow)
	}
	wantCode(t, ts.c, "VALIDATION", `mutation($id: Int!) { publishWorkflow(id: $id) { number } }`, map[string]any{"id": out.CreateWorkflow.ID})
}

// Seed 001: an agent whose workflow is unpublished, or that has none, never
// runs. The API says why (agent { ready notReadyReason }) and the server
// log says so once per agent, on its first silent turn.
func TestAgentThatCannotRunSaysWhy(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	ts := startServer(t, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	type agent struct {
		ID             int
		Ready          bool
		NotReadyReason *string
	}
	var demo struct{ Agents []agent }
	do(t, ts.c, `{ agents { id ready notReadyReason } }`, nil, &demo)
	if len(demo.Agents) != 1 || !demo.Agents[0].Ready || demo.Agents[0].NotReadyReason != nil {
		t.Fatalf("the demo agent is not ready: %+v", demo.Agents)
	}
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation { createWorkflow(input: {name: "Draft only"}) { id } }`, nil, &wf)
	cases := []struct {
		name, input, says, logSays string
	}{
		{"no workflow", `{name: "Bare"}`, "has no workflow attached: attach a published one with updateAgent", "has no workflow attached"},
		{"unpublished workflow", `{name: "Unpublished", workflowId: ` + itoa(wf.CreateWorkflow.ID) + `}`,
			`("Draft only") attached to agent`, "has never been published"},
	}
	for _, tc := range cases {
		var created struct{ CreateAgent agent }
		do(t, ts.c, `mutation { createAgent(input: `+tc.input+`) { id ready notReadyReason } }`, nil, &created)
		a := created.CreateAgent
		if a.Ready || a.NotReadyReason == nil || !strings.Contains(*a.NotReadyReason, tc.says) {
			t.Fatalf("%s: %+v, want not ready saying %q", tc.name, a, tc.says)
		}
		var s struct{ StartSession struct{ ID int } }
		do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": a.ID}, &s)
		for _, text := range []string{"hello?", "anyone there?"} {
			var turn struct {
				SendMessage struct{ Runs []struct{ ID int } }
			}
			do(t, ts.c, `mutation($s: Int!, $t: String!) { sendMessage(sessionId: $s, text: $t) { runs { id } } }`,
				map[string]any{"s": s.StartSession.ID, "t": text}, &turn)
			if len(turn.SendMessage.Runs) != 0 {
				t.Fatalf("%s: a run ran: %+v", tc.name, turn.SendMessage)
			}
		}
		warnings := 0
		for _, line := range strings.Split(logs.String(), "\n") {
			if strings.Contains(line, "level=WARN") && strings.Contains(line, "agent that is not ready") && strings.Contains(line, " agent="+itoa(a.ID)+" ") {
				warnings++
				if !strings.Contains(line, tc.logSays) {
					t.Errorf("%s: the warning does not say why: %s", tc.name, line)
				}
			}
		}
		if warnings != 1 {
			t.Fatalf("%s: %d warnings for agent %d after two silent turns, want 1:\n%s", tc.name, warnings, a.ID, logs.String())
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A graph the decoder refuses is named once ("graph: ", where it said
// "graph: graph: "), with the node and where in the document the server
// holds.
func TestGraphDecodeErrorsOverTheAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	cases := []struct{ graph, want string }{
		{`{nodes: [], edges: [], colour: "red"}`, `graph: unknown field "colour"`},
		{`{nodes: [{id: 5, type: "start"}], edges: []}`, `graph: nodes[0]: field "id" must be a string, not a JSON number (line 1, column `},
	}
	for _, tc := range cases {
		es := wantCode(t, ts.c, "VALIDATION", `mutation { createWorkflow(input: {name: "x", graph: `+tc.graph+`}) { id } }`, nil)
		if msg := es.Error(); !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "graph: graph:") {
			t.Errorf("%s: message %q, want %q", tc.graph, msg, tc.want)
		}
	}
}

// The run context the engine hands its observers (what `wetel run` prints
// as vars and output) never reaches a client: not in the events, not in a
// trace. Seed 000: "The stored context a paused run will resume with is
// deliberately not exposed over the API, on any query."
func TestRunContextStaysOnTheServer(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	const planted = "planted-context-value-4711"
	var s struct{ StartSession struct{ ID int64 } }
	do(t, ts.c, `mutation { startSession(input: {agentId: 1, clientExternalId: "`+planted+`"}) { id } }`, nil, &s)
	var turn struct {
		SendMessage struct {
			Runs []struct {
				Status    string
				NodeTrace json.RawMessage
			}
		}
	}
	do(t, ts.c, `mutation($s: Int!) { sendMessage(sessionId: $s, text: "hello") { runs { status nodeTrace } } }`, map[string]any{"s": s.StartSession.ID}, &turn)
	if len(turn.SendMessage.Runs) != 1 || turn.SendMessage.Runs[0].Status != "AWAITING_INPUT" {
		t.Fatalf("turn %+v", turn.SendMessage)
	}
	for _, field := range []string{`"output"`, `"vars"`, planted} {
		if strings.Contains(string(turn.SendMessage.Runs[0].NodeTrace), field) {
			t.Errorf("the trace shows %s: %s", field, turn.SendMessage.Runs[0].NodeTrace)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var seen []string
	_, _ = ts.c.Events(ctx, s.StartSession.ID, 0, func(ev client.Event) bool {
		seen = append(seen, ev.Type)
		for _, field := range []string{`"vars"`, "conversationHistory", planted} {
			if strings.Contains(string(ev.Data), field) {
				t.Errorf("event %s shows %s: %s", ev.Type, field, ev.Data)
			}
		}
		return ev.Type != "TurnComplete"
	})
	if len(seen) == 0 || seen[len(seen)-1] != "TurnComplete" {
		t.Fatalf("events %v", seen)
	}
}

// /readyz answers ready while the store answers, and a server that is
// shutting down is not ready, so a load balancer drains it.
func TestReadyz(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	resp, err := http.Get(ts.url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("readyz: HTTP %d", resp.StatusCode)
	}
	stopping := &Server{store: ts.s.store, closing: make(chan struct{})}
	close(stopping.closing)
	rec := httptest.NewRecorder()
	stopping.readyz(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("readyz while shutting down: HTTP %d", rec.Code)
	}
}
