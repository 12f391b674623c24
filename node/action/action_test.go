package action_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/action"
	"github.com/wetel/wetel/outbound"
)

func execute(t *testing.T, cfg string, svc *node.Services, vars map[string]any) (node.Outcome, error) {
	t.Helper()
	spec, _ := node.Default.Lookup("action")
	ex, err := spec.Build(node.BuildInput{NodeID: "submit", Type: "action", Config: json.RawMessage(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	if vars == nil {
		vars = map[string]any{}
	}
	x := &node.Exec{NodeID: "submit", NodeType: "action", Vars: vars, Clock: clock.Real{}, Services: svc}
	return ex.Execute(context.Background(), x)
}

func loopback(t *testing.T) *outbound.Client {
	t.Helper()
	allow, _ := outbound.ParseAllowlist("127.0.0.1")
	c, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// What is missing is said, as an UNKNOWN failure, never a panic.
func TestActionMissingCapabilities(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		svc  *node.Services
		want string
	}{
		{"no services", nil, `action node "submit": no custom actions are registered here; pass --workspace FILE to wetel run or wetel chat --graph`},
		{"no actions", node.NewServices(callout.HTTPKey.With(loopback(t))), `action node "submit": no custom actions are registered here`},
		{"unknown id", node.NewServices(callout.HTTPKey.With(loopback(t)), callout.ActionsKey.With(callout.ActionList{})), `action node "submit": custom action 41 is not registered in this workspace`},
		{"no HTTP client", node.NewServices(callout.ActionsKey.With(callout.ActionList{41: {ID: 41, URL: "https://claims.example.com/v1"}})), `action node "submit": outbound HTTP calls are not available here`},
	}
	for _, tc := range cases {
		_, err := execute(t, `{"customActionId":41}`, tc.svc, nil)
		if err == nil || failure.Classify(err) != failure.Unknown || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// Seed: the node fails when "argsTemplate is malformed": a body that does
// not render is INVALID_DATA, and nothing is sent.
func TestActionBodyThatDoesNotRender(t *testing.T) {
	t.Parallel()
	hits := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits <- struct{}{} }))
	defer srv.Close()
	svc := node.NewServices(callout.HTTPKey.With(loopback(t)), callout.ActionsKey.With(callout.ActionList{1: {ID: 1, URL: srv.URL}}))
	huge := strings.Repeat("x", 1<<20)
	_, err := execute(t, `{"customActionId":1,"argsTemplate":"{\"a\":\"{{big}} and {{big}}\"}"}`, svc, map[string]any{"big": huge})
	if failure.Classify(err) != failure.InvalidData || !strings.Contains(err.Error(), "rendering bodyTemplate") {
		t.Fatalf("err = %v", err)
	}
	if len(hits) != 0 {
		t.Error("a request was sent")
	}
}

// Each attempt is bounded by the node's timeoutMs, else the action's own.
func TestActionTimeoutPrecedence(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	}))
	defer srv.Close()
	svc := node.NewServices(callout.HTTPKey.With(loopback(t)), callout.ActionsKey.With(callout.ActionList{1: {ID: 1, Method: "POST", URL: srv.URL, TimeoutMs: 150}}))
	began := time.Now()
	_, err := execute(t, `{"customActionId":1}`, svc, nil)
	var ce *node.CallError
	if !errors.As(err, &ce) || failure.Classify(err) != failure.Timeout || ce.Outcome != "not_idempotent" {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("the action's 150 ms timeout was not applied: %v", d)
	}
	began = time.Now()
	_, err = execute(t, `{"customActionId":1,"timeoutMs":400}`, svc, nil)
	if d := time.Since(began); failure.Classify(err) != failure.Timeout || d < 400*time.Millisecond {
		t.Errorf("the node's timeoutMs did not win: %v after %v", err, d)
	}
}
