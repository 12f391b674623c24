package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

func failing(code, msg string) string {
	return nd("call", "action", fmt.Sprintf(`{"customActionId":1,"outputVar":"out","mockError":{"code":%q,"message":%q}}`, code, msg))
}

// Each code's public sentence, exactly as the seed's table has it.
func TestHandledFailureWritesCodeAndPublicSentence(t *testing.T) {
	t.Parallel()
	table := map[string]string{
		"TIMEOUT":        "The service took too long to respond.",
		"UNREACHABLE":    "The service could not be reached.",
		"RATE_LIMITED":   "The service is busy right now.",
		"REJECTED":       "The service did not accept the request.",
		"UPSTREAM_ERROR": "The service had a problem handling the request.",
		"INVALID_DATA":   "The information could not be processed.",
		"UNKNOWN":        "Something went wrong with that step.",
	}
	for code, sentence := range table {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			doc := gdoc([]string{nd("s", "start", `{}`), failing(code, "partner said: internal detail 42"), say("ok", "ok"), say("sorry", "{{_lastNodeErrorPublic}}")},
				[]string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success"), ed("e3", "call", "sorry", "failure")})
			res := newHarness().run(t, doc, engine.Input{})
			if res.Status != vocab.RunCompleted || path(res) != "s:COMPLETED call:FAILED_HANDLED sorry:COMPLETED" {
				t.Fatalf("status %s: %s", res.Status, path(res))
			}
			if res.Vars["_lastNodeErrorCode"] != code || res.Vars["_lastNodeErrorPublic"] != sentence {
				t.Fatalf("code %v, public %v", res.Vars["_lastNodeErrorCode"], res.Vars["_lastNodeErrorPublic"])
			}
			if got := texts(res); len(got) != 1 || got[0] != sentence || strings.Contains(got[0], "42") {
				t.Fatalf("reply %q", got)
			}
			if res.Vars["_lastNodeError"] != "partner said: internal detail 42" {
				t.Errorf("_lastNodeError = %v", res.Vars["_lastNodeError"])
			}
		})
	}
}

func TestLastNodeErrorIsRedacted(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), failing("REJECTED", "401 from https://api.example.com/v1?api_key=sk-live-abcdefghijklmnop1234 with Authorization: Bearer abc.def.ghi"), say("ok", "ok"), say("sorry", "sorry")},
		[]string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success"), ed("e3", "call", "sorry", "failure")})
	res := newHarness().run(t, doc, engine.Input{})
	got := res.Vars["_lastNodeError"].(string)
	for _, secret := range []string{"sk-live-abcdefghijklmnop1234", "abc.def.ghi"} {
		if strings.Contains(got, secret) {
			t.Errorf("_lastNodeError leaks %q: %s", secret, got)
		}
	}
	if !strings.Contains(got, "api.example.com") {
		t.Errorf("redaction removed the context too: %s", got)
	}
}

func TestUnhandledFailureFailsTheRun(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edges []string
	}{
		{"no failure routing", []string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "")}},
		{"success edge only", []string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := gdoc([]string{nd("s", "start", `{}`), failing("TIMEOUT", "took too long"), say("ok", "ok")}, tc.edges)
			var events []string
			res := newHarness().run(t, doc, engine.Input{Observer: engine.ObserverFunc(func(e engine.Event) {
				events = append(events, string(e.Kind)+":"+e.NodeID+e.ErrorCode)
			})})
			if res.Status != vocab.RunFailed || path(res) != "s:COMPLETED call:FAILED" || res.ErrorCode != "TIMEOUT" {
				t.Fatalf("status %s %s: %s", res.Status, res.ErrorCode, path(res))
			}
			want := "RunStarted: NodeExecuting:s NodeCompleted:s NodeExecuting:call NodeFailed:callTIMEOUT RunFinished:"
			if strings.Join(events, " ") != want {
				t.Errorf("events\n got: %s\nwant: %s", strings.Join(events, " "), want)
			}
			if _, set := res.Vars["_lastNodeError"]; set {
				t.Error("_lastNodeError is written only for a handled failure")
			}
		})
	}
}

// A handled failure "publishes no NodeFailedEvent"; it completes as FAILED_HANDLED.
func TestHandledFailureEvents(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`), failing("TIMEOUT", "slow"), say("ok", "ok"), say("sorry", "sorry")},
		[]string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success"), ed("e3", "call", "sorry", "failure")})
	var events []string
	newHarness().run(t, doc, engine.Input{Observer: engine.ObserverFunc(func(e engine.Event) {
		events = append(events, string(e.Kind)+":"+e.NodeID+e.Status)
	})})
	want := "RunStarted: NodeExecuting:s NodeCompleted:sCOMPLETED NodeExecuting:call NodeCompleted:callFAILED_HANDLED " +
		"NodeExecuting:sorry Message:sorry NodeCompleted:sorryCOMPLETED RunFinished:COMPLETED"
	if strings.Join(events, " ") != want {
		t.Errorf("events\n got: %s\nwant: %s", strings.Join(events, " "), want)
	}
}

// What never takes the failure edge: an error the node marks fatal (such as
// failing to save an await_reply pause), and a panic.
func TestFatalErrorsNeverRoute(t *testing.T) {
	t.Parallel()
	for name, fn := range map[string]node.ExecutorFunc{
		"fatal": func(context.Context, *node.Exec) (node.Outcome, error) {
			return node.Outcome{}, node.Fatal(errors.New("saving the pause failed"))
		},
		"panic": func(context.Context, *node.Exec) (node.Outcome, error) { panic("boom") },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness()
			h.stub(t, "fragile", true, fn)
			doc := gdoc([]string{nd("s", "start", `{}`), nd("f", "fragile", `{}`), say("ok", "ok"), say("sorry", "sorry")},
				[]string{ed("e1", "s", "f", ""), ed("e2", "f", "ok", "success"), ed("e3", "f", "sorry", "failure")})
			res := h.run(t, doc, engine.Input{})
			if res.Status != vocab.RunFailed || path(res) != "s:COMPLETED f:FAILED" {
				t.Fatalf("status %s: %s", res.Status, path(res))
			}
		})
	}
}

// set_variable takes its failure edge when an assignment fails, and writes nothing.
func TestSetVariableFailureRoutes(t *testing.T) {
	t.Parallel()
	doc := gdoc([]string{nd("s", "start", `{}`),
		nd("sv", "set_variable", `{"assignments":[{"var":"first","value":"written"},{"var":"qty","value":"abc","coerce":"number"}]}`),
		say("ok", "ok"), say("sorry", "{{_lastNodeErrorCode}}: {{_lastNodeError}}")},
		[]string{ed("e1", "s", "sv", ""), ed("e2", "sv", "ok", "success"), ed("e3", "sv", "sorry", "failure")})
	res := newHarness().run(t, doc, engine.Input{})
	if path(res) != "s:COMPLETED sv:FAILED_HANDLED sorry:COMPLETED" {
		t.Fatalf("trace %s", path(res))
	}
	if _, ok := res.Vars["first"]; ok {
		t.Error("a failing set_variable left an earlier assignment written")
	}
	if got := texts(res); got[0] != `INVALID_DATA: assignment 2 (qty): coerce "number": "abc" is not a number` {
		t.Errorf("reply %q", got[0])
	}
	if res.NodeTrace[1].Error == "" || res.NodeTrace[1].ErrorClass != "INVALID_DATA" {
		t.Errorf("row %+v", res.NodeTrace[1])
	}
}

// Without mock mode a node whose type does not run where the engine runs
// fails, and says so in words true for that place.
func TestCallNodesAreNotAvailableOffline(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		place node.Place
		want  string
	}{
		{node.Offline, `knowledge_search node "l" cannot run: knowledge_search nodes are not available offline`},
		{node.OnServer, `knowledge_search node "l" cannot run: knowledge_search nodes are not available on this server`},
		{0, `knowledge_search node "l" cannot run: knowledge_search nodes are not available here`},
	} {
		h := newHarness()
		eng, _ := engine.New(engine.Options{Clock: h.clock, Place: tc.place})
		doc := gdoc([]string{nd("s", "start", `{}`), nd("l", "knowledge_search", `{"knowledgeBaseId":1,"queryTemplate":"q","outputVar":"o"}`)}, []string{ed("e1", "s", "l", "")})
		res := eng.Run(context.Background(), h.compile(t, doc), engine.Input{})
		if res.Status != vocab.RunFailed || !strings.HasPrefix(res.Error, tc.want) {
			t.Errorf("place %v: status %s: %s", tc.place, res.Status, res.Error)
		}
	}
}
