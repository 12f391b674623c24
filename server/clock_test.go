package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
)

// TestOpenWaitsGaugeReadsTheServersClock asks a question that expires in a
// minute and sees wetel_open_waits count it until the server's clock
// passes the minute.
func TestOpenWaitsGaugeReadsTheServersClock(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Now())
	ts := startServer(t, Config{Clock: clk})
	graph := `{"nodes":[{"id":"start","type":"start"},
		{"id":"ask","type":"await_reply","config":{"promptTemplate":"Name?","saveAs":"name","expiresAfterSeconds":60}},
		{"id":"hi","type":"response","config":{"messageTemplate":"Hello {{name}}"}}],
		"edges":[{"id":"e1","source":"start","target":"ask"},{"id":"e2","source":"ask","target":"hi","label":"answered"}]}`
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "ask", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "ask", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)
	if m := send(t, ts, s.StartSession.ID, "hi").SendMessage.Messages; len(m) != 1 || m[0].Text != "Name?" {
		t.Fatalf("turn: %+v", m)
	}
	if got := scrape(t, ts, "wetel_open_waits"); got != "1" {
		t.Fatalf("wetel_open_waits = %s with one open question, want 1", got)
	}
	ts.advance(t, clk, 59*time.Second)
	if got := scrape(t, ts, "wetel_open_waits"); got != "1" {
		t.Fatalf("wetel_open_waits = %s 59 s into a minute's question, want 1", got)
	}
	ts.advance(t, clk, 2*time.Second)
	if got := scrape(t, ts, "wetel_open_waits"); got != "0" {
		t.Errorf("wetel_open_waits = %s once the question expired, want 0", got)
	}
}

// scrape returns the value of a metric without labels from /metrics.
func scrape(t *testing.T, ts *testServer, name string) string {
	t.Helper()
	resp, err := http.Get(ts.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			return v
		}
	}
	t.Fatalf("/metrics has no %s (%v)", name, sc.Err())
	return ""
}

// TestStoredEventsArePrunedByTheServersClock: a turn's stored events stay
// while they are younger than eventRetention by the server's clock, and
// the first pruning pass after that deletes them.
func TestStoredEventsArePrunedByTheServersClock(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Now())
	ts := startServer(t, Config{Clock: clk})
	session := startDemoSession(t, ts)
	send(t, ts, session, "hello")
	ts.advance(t, clk, time.Second) // the hub writes the turn's events
	stored := func() int {
		t.Helper()
		evs, err := ts.s.store.EventsAfter(context.Background(), 1, int64(session), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	if stored() == 0 {
		t.Fatal("the turn stored no events")
	}
	ts.advance(t, clk, eventRetention-time.Minute) // a pruning pass runs, a minute early
	if stored() == 0 {
		t.Fatal("events were pruned before their retention was up")
	}
	ts.advance(t, clk, pruneEvery)
	if n := stored(); n != 0 {
		t.Errorf("%d events outlived their retention by %v", n, pruneEvery-time.Minute)
	}
}
