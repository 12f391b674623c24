package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// TestShippingThroughTheAPI is seed 000's shipping example authored,
// published and chatted with through the API, its two actions registered
// with createCustomAction and served by a partner on 127.0.0.1 (opened by
// the allowlist): turn 1 asks which order, turn 2 "2" resumes at
// fetch_status, and find_orders is not called again. The partner receives
// the Authorization header, which no answer shows back.
func TestShippingThroughTheAPI(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := map[string][]string{}
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls[r.URL.Path] = append(calls[r.URL.Path], string(body)+" auth="+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/orders":
			_, _ = io.WriteString(w, `[{"order_id":"ORD-1041","description":"Walnut desk lamp"},{"order_id":"ORD-1187","description":"Linen duvet cover, queen"}]`)
		case "/status":
			_, _ = io.WriteString(w, `{"state":"in transit","eta":"Thursday"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer partner.Close()
	ts := startServer(t, Config{AllowHosts: "127.0.0.1/32"})

	const secret = "Bearer partner-secret-token-123456"
	for _, a := range []struct {
		id   int
		path string
	}{{42, "/orders"}, {43, "/status"}} {
		var out struct {
			CreateCustomAction struct {
				Headers []struct{ Name, Value string }
			}
		}
		do(t, ts.c, `mutation($id: Int!, $u: String!, $h: String!) { createCustomAction(input: {id: $id, name: $u, url: $u,
			headers: [{name: "Authorization", value: $h}]}) { headers { name value } } }`,
			map[string]any{"id": a.id, "u": partner.URL + a.path, "h": secret}, &out)
		if h := out.CreateCustomAction.Headers; len(h) != 1 || strings.Contains(h[0].Value, "partner-secret") {
			t.Fatalf("headers shown back: %+v", h)
		}
	}
	var listed struct {
		CustomActions []struct {
			ID      int
			Headers []struct{ Value string }
		}
	}
	do(t, ts.c, `{ customActions { id headers { value } } }`, nil, &listed)
	if len(listed.CustomActions) != 2 || strings.Contains(listed.CustomActions[0].Headers[0].Value, "partner-secret") {
		t.Fatalf("customActions: %+v", listed)
	}

	graph, err := os.ReadFile("../examples/shipping-await-reply.json")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct{ CreateWorkflow struct{ ID int } }
	do(t, ts.c, `mutation($g: JSON!) { createWorkflow(input: {name: "Shipping", graph: $g}) { id } }`, map[string]any{"g": json.RawMessage(graph)}, &wf)
	do(t, ts.c, `mutation($w: Int!) { publishWorkflow(id: $w) { number } }`, map[string]any{"w": wf.CreateWorkflow.ID}, nil)
	var ag struct{ CreateAgent struct{ ID int } }
	do(t, ts.c, `mutation($w: Int!) { createAgent(input: {name: "Shipping", workflowId: $w}) { id } }`, map[string]any{"w": wf.CreateWorkflow.ID}, &ag)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a, clientExternalId: "cust-7"}) { id } }`, map[string]any{"a": ag.CreateAgent.ID}, &s)

	first := send(t, ts, s.StartSession.ID, "where are my orders?")
	if r := first.SendMessage.Runs; len(r) != 1 || r[0].Status != "AWAITING_INPUT" {
		t.Fatalf("turn 1: %+v", first.SendMessage)
	}
	if q := first.SendMessage.Messages[0].Text; !strings.Contains(q, "1. Walnut desk lamp\n2. Linen duvet cover, queen\n") {
		t.Fatalf("turn 1 question: %q", q)
	}
	second := send(t, ts, s.StartSession.ID, "2")
	if m := second.SendMessage.Messages; len(m) != 1 || m[0].Text != "Linen duvet cover, queen is currently in transit, expected Thursday." {
		t.Fatalf("turn 2: %+v", second.SendMessage)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls["/orders"]) != 1 || len(calls["/status"]) != 1 {
		t.Fatalf("partner calls: %v (find_orders must not run again)", calls)
	}
	if got := calls["/orders"][0]; got != `{"customerRef":"cust-7"} auth=`+secret {
		t.Errorf("find_orders sent %s", got)
	}
	if got := calls["/status"][0]; !strings.HasPrefix(got, `{"orderId":"ORD-1187"}`) {
		t.Errorf("fetch_status sent %s", got)
	}
	var run struct {
		WorkflowRun struct{ NodeTrace json.RawMessage }
	}
	do(t, ts.c, `query($r: Int!) { workflowRun(id: $r) { nodeTrace } }`, map[string]any{"r": first.SendMessage.Runs[0].ID}, &run)
	if strings.Contains(string(run.WorkflowRun.NodeTrace), "partner-secret") {
		t.Errorf("the trace carries the secret: %s", run.WorkflowRun.NodeTrace)
	}
}
