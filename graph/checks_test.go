package graph_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
)

// n builds a node JSON with the given config.
func n(id, typ, cfg string) string {
	return fmt.Sprintf(`{"id":%q,"type":%q,"label":%q,"config":%s}`, id, typ, id, cfg)
}

// e builds an edge JSON; label may be empty.
func e(id, src, dst, label string) string {
	if label == "" {
		return fmt.Sprintf(`{"id":%q,"source":%q,"target":%q}`, id, src, dst)
	}
	return fmt.Sprintf(`{"id":%q,"source":%q,"target":%q,"label":%q}`, id, src, dst, label)
}

func doc(nodes []string, edges []string) string {
	return `{"nodes":[` + strings.Join(nodes, ",") + `],"edges":[` + strings.Join(edges, ",") + `]}`
}

func mustDecode(t *testing.T, src string) *graph.Graph {
	t.Helper()
	g, err := graph.Decode([]byte(src))
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, src)
	}
	return g
}

// withStart puts a start node and an edge to the first node in front of nodes.
func withStart(nodes []string, edges []string) string {
	var first struct{ ID string }
	_ = json.Unmarshal([]byte(nodes[0]), &first)
	return doc(append([]string{n("start", "start", `{}`)}, nodes...), append([]string{e("e0", "start", first.ID, "")}, edges...))
}

func messages(ps []graph.Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Message
	}
	return out
}

func TestSaveChecks(t *testing.T) {
	t.Parallel()
	resp := func(extra string) string {
		return n("r", "response", `{"messageTemplate":"hi"`+extra+`}`)
	}
	// The lists of types a message names come from the registry, so a new
	// type changes the expected text with it.
	mockable := node.JoinNames(node.Default.Names(func(s *node.Spec) bool { return s.Mockable }))
	retryable := node.JoinNames(node.Default.Names(func(s *node.Spec) bool { return s.Retry }))
	allTypes := node.JoinNames(node.Default.Types())
	cases := []struct {
		name string
		doc  string
		want []string // exact messages, in order
	}{
		{"maxVisits above the ceiling", withStart([]string{n("x", "response", `{"messageTemplate":"a","maxVisits":400}`)}, nil),
			[]string{`Node "x" has maxVisits 400, exceeding the maximum of 100.`}},
		{"maxVisits zero", withStart([]string{n("x", "response", `{"messageTemplate":"a","maxVisits":0}`)}, nil),
			[]string{`Node "x" has maxVisits 0; it must be a positive integer from 1 to 100.`}},
		{"maxVisits negative", withStart([]string{n("x", "response", `{"messageTemplate":"a","maxVisits":-2}`)}, nil),
			[]string{`Node "x" has maxVisits -2; it must be a positive integer from 1 to 100.`}},
		{"maxVisits fraction", withStart([]string{n("x", "response", `{"messageTemplate":"a","maxVisits":2.5}`)}, nil),
			[]string{`Node "x" has maxVisits 2.5; it must be a positive integer from 1 to 100.`}},
		{"maxVisits string", withStart([]string{n("x", "response", `{"messageTemplate":"a","maxVisits":"3"}`)}, nil),
			[]string{`Node "x" has maxVisits "3"; it must be a positive integer from 1 to 100.`}},
		{"maxVisits 100 allowed", withStart([]string{n("x", "response", `{"messageTemplate":"a","maxVisits":100}`)}, nil), nil},
		{"mockResponse on a response node", withStart([]string{resp(`,"mockResponse":"x"`)}, nil),
			[]string{`Node "r": mockResponse is only allowed on ` + mockable + ` nodes, not on response.`}},
		{"mockError on a condition", withStart([]string{n("c", "condition", `{"expression":"true","mockError":{"code":"TIMEOUT"}}`)}, nil),
			[]string{`Node "c": mockError is only allowed on ` + mockable + ` nodes, not on condition.`}},
		{"mockResponse over 16 KB", withStart([]string{n("l", "llm", `{"promptTemplate":"p","outputVar":"o","mockResponse":"`+strings.Repeat("a", 16*1024)+`"}`)}, nil),
			[]string{`Node "l": mockResponse is 16386 bytes, exceeding the maximum of 16384 (16 KB).`}},
		{"mockResponse and mockError together", withStart([]string{n("l", "llm", `{"promptTemplate":"p","outputVar":"o","mockResponse":"a","mockError":{"code":"TIMEOUT"}}`)}, nil),
			[]string{`Node "l": set mockResponse or mockError, not both; a mocked node either succeeds or fails.`}},
		{"mockError with an unknown code", withStart([]string{n("l", "llm", `{"promptTemplate":"p","outputVar":"o","mockError":{"code":"OOPS"}}`)}, nil),
			[]string{`Node "l": config.mockError.code must be one of "TIMEOUT", "UNREACHABLE", "RATE_LIMITED", "REJECTED", "UPSTREAM_ERROR", "INVALID_DATA", "UNKNOWN", not "OOPS".`}},
		{"retry on an llm node", withStart([]string{n("l", "llm", `{"promptTemplate":"p","outputVar":"o","retry":{"maxAttempts":2}}`)}, nil),
			[]string{`Node "l": retry is only allowed on ` + retryable + ` nodes, not on llm.`}},
		{"retry on an async webhook", withStart([]string{n("w", "webhook", `{"url":"https://x.example","async":true,"retry":{"maxAttempts":2}}`)}, nil),
			[]string{`Node "w": retry is not allowed on a webhook with async: true, which does not wait for an answer to retry on.`}},
		{"retry with fetchAsBase64Var", withStart([]string{n("a", "action", `{"customActionId":1,"fetchAsBase64Var":"pdf","retry":{"maxAttempts":2}}`)}, nil),
			[]string{`Node "a": retry is not allowed on an action with fetchAsBase64Var.`}},
		{"retry unknown field", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"maxAttempts":2,"tries":3}}`)}, nil),
			[]string{`Node "a": config.retry.tries is not a known field.`}},
		{"retry maxAttempts missing", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"delayMs":200}}`)}, nil),
			[]string{`Node "a": config.retry.maxAttempts is required.`}},
		{"retry maxAttempts 5", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"maxAttempts":5}}`)}, nil),
			[]string{`Node "a": config.retry.maxAttempts must be from 1 to 4, not 5.`}},
		{"retry delayMs 50", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"maxAttempts":2,"delayMs":50}}`)}, nil),
			[]string{`Node "a": config.retry.delayMs must be from 100 to 5000, not 50.`}},
		{"retry maxDelayMs below delayMs", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"maxAttempts":2,"delayMs":800,"maxDelayMs":500}}`)}, nil),
			[]string{`Node "a": config.retry.maxDelayMs must be at least delayMs; it caps any one wait.`}},
		{"retry deadlineMs too long", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"maxAttempts":2,"deadlineMs":200000}}`)}, nil),
			[]string{`Node "a": config.retry.deadlineMs must be from 1000 to 120000, not 200000.`}},
		{"retry on REJECTED", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"maxAttempts":2,"on":["REJECTED"]}}`)}, nil),
			[]string{`Node "a": config.retry.on[0] must be one of "TIMEOUT", "UNREACHABLE", "RATE_LIMITED", "UPSTREAM_ERROR", not "REJECTED".`}},
		{"retry backoff linear", withStart([]string{n("a", "action", `{"customActionId":1,"retry":{"maxAttempts":2,"backoff":"linear"}}`)}, nil),
			[]string{`Node "a": config.retry.backoff must be one of "fixed", "exponential", not "linear".`}},
		{"reserved outputVar", withStart([]string{n("l", "llm", `{"promptTemplate":"p","outputVar":"userMessage"}`)}, nil),
			[]string{`Node "l": config.outputVar "userMessage" is a reserved name (it is a turn fact the engine sets on every run).`}},
		{"reserved underscore name", withStart([]string{n("s", "set_variable", `{"assignments":[{"var":"_lastNodeError","value":"x"}]}`)}, nil),
			[]string{`Node "s": config.assignments[0].var "_lastNodeError" is a reserved name (names starting with _ are reserved for the engine).`}},
		{"reserved saveAs", withStart([]string{n("q", "await_reply", `{"promptTemplate":"?","saveAs":"awaitReplyOptions"}`)}, []string{e("e1", "q", "q2", "answered")}),
			[]string{`Node "q": config.saveAs "awaitReplyOptions" is a reserved name (awaitReplyOptions is reserved for rendering an await_reply question).`}},
		{"unknown config field", withStart([]string{n("d", "router", `{"variable":"intent","fallback":"x"}`)}, nil),
			[]string{`Node "d": config.fallback is not a field of router nodes.`}},
		{"wrong field type", withStart([]string{n("d", "router", `{"variable":7}`)}, nil),
			[]string{`Node "d": config.variable must be a string, not a number.`}},
		{"bad expression", withStart([]string{n("c", "condition", `{"expression":"a >"}`)}, nil), nil}, // checked below by prefix
		{"unknown type is case-sensitive", withStart([]string{n("l", "LLM", `{}`)}, nil),
			[]string{`Node "l" has unknown type "LLM"; node types are lowercase: ` + allTypes + `.`}},
		{"await_reply options without unanswered", withStart([]string{n("ask_which_order", "await_reply", `{"promptTemplate":"?","saveAs":"x","matchMode":"options","optionsFrom":"list"}`), resp("")},
			[]string{e("e1", "ask_which_order", "r", "answered")}),
			[]string{`AWAIT_REPLY node "ask_which_order" uses matchMode 'options' but has no outgoing edge labeled 'unanswered' — a reply that matches none of the offered options must have somewhere to go`}},
		{"await_reply without answered", withStart([]string{n("q", "await_reply", `{"promptTemplate":"?","saveAs":"x"}`)}, nil),
			[]string{`AWAIT_REPLY node "q" has no outgoing edge labeled 'answered' — every await_reply node needs one, for the reply to continue along`}},
		{"await_reply options without optionsFrom", withStart([]string{n("q", "await_reply", `{"promptTemplate":"?","saveAs":"x","matchMode":"options"}`), resp("")},
			[]string{e("e1", "q", "r", "answered"), e("e2", "q", "r", "unanswered")}),
			[]string{`Node "q": config.optionsFrom is required when matchMode is 'options': it names the array the options are built from.`}},
		{"set_variable needs exactly one source", withStart([]string{n("s", "set_variable", `{"assignments":[{"var":"a","value":1,"from":"b"}]}`)}, nil),
			[]string{`Node "s": config.assignments[0] needs exactly one of value, from or expression.`}},
		{"switch case labeled default", withStart([]string{n("w", "switch", `{"cases":[{"label":"default","expression":"true"}]}`)}, nil),
			[]string{`Node "w": config.cases[0].label "default" is reserved for the switch's own edges.`}},
		{"switch with 11 cases", withStart([]string{n("w", "switch", `{"cases":[`+strings.TrimSuffix(strings.Repeat(`{"label":"a","expression":"true"},`, 11), ",")+`]}`)}, nil),
			[]string{`Node "w": config.cases must have at most 10 entries, not 11.`}},
		{"timeoutMs above ceiling", withStart([]string{n("a", "action", `{"customActionId":1,"timeoutMs":60000}`)}, nil),
			[]string{`Node "a": config.timeoutMs must be from 1 to 30000, not 60000.`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := messages(graph.CheckSave(mustDecode(t, tc.doc), node.Default))
			if tc.name == "bad expression" {
				if len(got) != 1 || !strings.HasPrefix(got[0], `Node "c": config.expression is not a valid expression: `) {
					t.Fatalf("got %q", got)
				}
				return
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("save check messages\n got: %q\nwant: %q", got, tc.want)
			}
		})
	}
}

func TestSizeCaps(t *testing.T) {
	t.Parallel()
	var nodes, edges []string
	nodes = append(nodes, n("start", "start", `{}`))
	for i := 1; i <= 200; i++ {
		nodes = append(nodes, n(fmt.Sprintf("r%d", i), "response", `{"messageTemplate":"x"}`))
	}
	for i := 0; i < 401; i++ {
		edges = append(edges, e(fmt.Sprintf("e%d", i), "start", "r1", ""))
	}
	got := messages(graph.CheckSave(mustDecode(t, doc(nodes, edges)), node.Default))
	want := []string{"Workflow has 201 nodes, exceeding the maximum of 200.", "Workflow has 401 edges, exceeding the maximum of 400."}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Exactly at the caps is fine.
	got = messages(graph.CheckSave(mustDecode(t, doc(nodes[:200], edges[:400])), node.Default))
	if len(got) != 0 {
		t.Fatalf("200 nodes and 400 edges refused: %q", got)
	}
}
