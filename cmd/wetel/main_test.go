package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wetel/wetel/graph"
)

type cliResult struct {
	code           int
	stdout, stderr string
}

func wetel(t *testing.T, args ...string) cliResult {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return cliResult{code, out.String(), errOut.String()}
}

type runDoc struct {
	SessionID int64 `json:"sessionId"`
	Turns     []struct {
		Message string `json:"message"`
		Runs    []struct {
			ID               int64            `json:"id"`
			Status           string           `json:"status"`
			ResumedFromRunID *int64           `json:"resumedFromRunId"`
			Error            string           `json:"error"`
			ErrorCode        string           `json:"errorCode"`
			NodeTrace        []map[string]any `json:"nodeTrace"`
			Vars             map[string]any   `json:"vars"`
		} `json:"runs"`
		Messages []struct {
			Text         string `json:"text"`
			Mood         string `json:"mood"`
			TurnComplete bool   `json:"turnComplete"`
		} `json:"messages"`
	} `json:"turns"`
}

func decodeRun(t *testing.T, r cliResult) runDoc {
	t.Helper()
	if r.code != 0 && r.code != exitRunFailed {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var d runDoc
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("output is not the documented JSON: %v\n%s", err, r.stdout)
	}
	return d
}

func trace(rows []map[string]any) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = r["nodeId"].(string) + ":" + r["status"].(string)
	}
	return strings.Join(parts, " ")
}

// The seed's router + tool example through `wetel run` in mock mode, for
// both intents and an unknown one that falls back to defaultTarget.
func TestRunOrderStatusExample(t *testing.T) {
	t.Parallel()
	cases := []struct{ intent, reply, mood string }{
		{`"order_status"`, "Here's your order status: ORD-48213 shipped on Monday and arrives Thursday", "helpful"},
		{`"general"`, "I can help you check an order's status. What would you like to know?", "neutral"},
		{`"cancel_subscription"`, "I can help you check an order's status. What would you like to know?", "neutral"},
	}
	for _, tc := range cases {
		t.Run(tc.intent, func(t *testing.T) {
			t.Parallel()
			d := decodeRun(t, wetel(t, "run", "../../examples/order-status.json", "--mock", "--mock-response", "classify="+tc.intent, "--message", "where is my order?"))
			turn := d.Turns[0]
			if turn.Message != "where is my order?" || len(turn.Runs) != 1 || turn.Runs[0].Status != "COMPLETED" || turn.Runs[0].ResumedFromRunID != nil {
				t.Fatalf("turn = %+v", turn)
			}
			if len(turn.Messages) != 1 || turn.Messages[0].Text != tc.reply || turn.Messages[0].Mood != tc.mood || !turn.Messages[0].TurnComplete {
				t.Fatalf("messages = %+v", turn.Messages)
			}
		})
	}
}

// The seed's bounded retry example: 8 executions, the VISIT_LIMIT_REACHED row
// with visitLimit 3 and visitCount 3, three notices then the hand-off.
func TestRunBoundedRetryExample(t *testing.T) {
	t.Parallel()
	d := decodeRun(t, wetel(t, "run", "../../examples/bounded-retry.json", "--mock", "--message", "please file my claim"))
	run := d.Turns[0].Runs[0]
	want := "n_start:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED " +
		"n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:VISIT_LIMIT_REACHED n_give_up:COMPLETED"
	if run.Status != "COMPLETED" || trace(run.NodeTrace) != want {
		t.Fatalf("status %s\n got: %s\nwant: %s", run.Status, trace(run.NodeTrace), want)
	}
	refusal := run.NodeTrace[7]
	if refusal["visitLimit"] != 3.0 || refusal["visitCount"] != 3.0 || refusal["nodeType"] != "action" {
		t.Fatalf("refusal row %v", refusal)
	}
	for _, field := range []string{"startedAt", "finishedAt"} {
		if s, _ := refusal[field].(string); !strings.HasSuffix(s, "Z") || len(s) != len("2026-09-21T09:14:03.128Z") {
			t.Errorf("%s = %v", field, refusal[field])
		}
	}
	msgs := d.Turns[0].Messages
	if len(msgs) != 4 || msgs[3].Text[:29] != "I couldn't reach our claims s" || !msgs[3].TurnComplete || msgs[0].TurnComplete {
		t.Fatalf("messages %+v", msgs)
	}
}

// A run that FAILED exits 3 and still prints what happened; the user gets
// the standard failure reply.
func TestRunFailedRunExitsThree(t *testing.T) {
	t.Parallel()
	// Without --mock the llm node cannot run offline, and has no failure edge.
	r := wetel(t, "run", "../../examples/order-status.json", "--message", "hi")
	if r.code != exitRunFailed || !strings.Contains(r.stderr, "1 run(s) FAILED") {
		t.Fatalf("exit %d, want %d: %s", r.code, exitRunFailed, r.stderr)
	}
	d := decodeRun(t, r)
	turn := d.Turns[0]
	if turn.Runs[0].Status != "FAILED" || len(turn.Messages) != 1 || turn.Messages[0].Text != "Sorry, I ran into a problem" || !turn.Messages[0].TurnComplete {
		t.Fatalf("turn %+v", turn)
	}
}

// Several --message flags are several turns; conversationHistory carries the transcript.
func TestRunSeveralTurns(t *testing.T) {
	t.Parallel()
	graph := `{"nodes":[{"id":"s","type":"start","config":{}},{"id":"r","type":"response","config":{"messageTemplate":"turn {{turnIndex}}: {{#each conversationHistory}}{{role}}={{text}};{{/each}}"}}],"edges":[{"id":"e","source":"s","target":"r"}]}`
	path := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(path, []byte(graph), 0o600); err != nil {
		t.Fatal(err)
	}
	d := decodeRun(t, wetel(t, "run", path, "--message", "hi", "--message", "again"))
	if len(d.Turns) != 2 || d.Turns[1].Runs[0].ID != 2 {
		t.Fatalf("turns %+v", d.Turns)
	}
	if got := d.Turns[1].Messages[0].Text; got != "turn 1: user=hi;assistant=turn 0: user=hi;;user=again;" {
		t.Fatalf("second reply %q", got)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte(`{"nodes":[{"id":"s","type":"start","config":{}},{"id":"x","type":"response","config":{"messageTemplate":"a","maxVisits":400}}],"edges":[{"id":"e","source":"s","target":"x"}]}`), 0o600)
	r := wetel(t, "validate", bad)
	if r.code != 1 || !strings.Contains(r.stdout, `error MAX_VISITS_INVALID: Node "x" has maxVisits 400, exceeding the maximum of 100.`) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = wetel(t, "validate", "--json", "../../examples/order-status.json")
	var rep report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 || !rep.Publishable || len(rep.Errors) != 0 {
		t.Fatalf("exit %d, %v: %s", r.code, err, r.stdout)
	}
	// validate checks for offline, where the llm node now runs for real.
	for _, p := range rep.Diagnostics {
		if p.Code == graph.DiagNodeTypeUnavailable {
			t.Errorf("order-status.json: %s %q", p.Code, p.Message)
		}
	}
	r = wetel(t, "run", bad, "--message", "x")
	if r.code != 1 || !strings.Contains(r.stderr, "exceeding the maximum of 100") {
		t.Fatalf("run of an unpublishable graph: exit %d: %s", r.code, r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"frobnicate"}, {"run"}, {"validate", "a", "b"}, {"run", "x.json", "--allow-host", "not a host!"},
		{"run", "x.json", "--mock-response", "novalue"}, {"serve", "--log-level", "loud"}, {"serve", "--log-level", "info+2"}} {
		if r := wetel(t, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2", args, r.code)
		}
	}
}

// A first start that cannot listen creates nothing and prints no key: the
// key printed once would belong to a workspace nobody can reach.
func TestServeChecksTheAddressFirst(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	data := filepath.Join(t.TempDir(), "wetel-data")
	r := wetel(t, "serve", "--addr", ln.Addr().String(), "--data", data)
	if r.code != 1 || !strings.Contains(r.stderr, "cannot listen on "+ln.Addr().String()) {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("printed %q", r.stdout)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("the data folder was created: %v", err)
	}
}
