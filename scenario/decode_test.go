package scenario

import (
	"strings"
	"testing"
	"time"
)

const shippingYAML = `name: shipping
graph: shipping.json
clock: 2026-03-02T09:00:00Z
identity: ann
mocks:
  find_orders:
    mockResponse: {status: 200, data: [{order_id: A, description: Lamp}]}
  fetch_status:
    mockError: {code: TIMEOUT, message: slow}
  retry:
    sequence: [{mockError: {code: TIMEOUT}}, {mockResponse: ok}]
turns:
  - message: where are my orders?
    expect:
      status: AWAITING_INPUT
      path: [start, find_orders, ask]
      messages:
        - contains: Lamp
          mood: helpful
  - message: 1
    advance: 90s
    identity: ""
    expect:
      path: []
      vars: {chosen: {slot: 1}}
      messages: ["exact text", {matches: "^Lamp"}]
      trace: [{node: fetch_status, status: FAILED_HANDLED, errorClass: TIMEOUT}]
      sessionEnded: false
`

const shippingJSON = `{"name": "shipping", "graph": "shipping.json", "clock": "2026-03-02T09:00:00Z", "identity": "ann",
 "mocks": {"find_orders": {"mockResponse": {"status": 200, "data": [{"order_id": "A", "description": "Lamp"}]}},
           "fetch_status": {"mockError": {"code": "TIMEOUT", "message": "slow"}},
           "retry": {"sequence": [{"mockError": {"code": "TIMEOUT"}}, {"mockResponse": "ok"}]}},
 "turns": [
  {"message": "where are my orders?", "expect": {"status": "AWAITING_INPUT", "path": ["start", "find_orders", "ask"],
    "messages": [{"contains": "Lamp", "mood": "helpful"}]}},
  {"message": "1", "advance": "90s", "identity": "", "expect": {"path": [], "vars": {"chosen": {"slot": 1}},
    "messages": ["exact text", {"matches": "^Lamp"}],
    "trace": [{"node": "fetch_status", "status": "FAILED_HANDLED", "errorClass": "TIMEOUT"}], "sessionEnded": false}}
 ]}`

// A YAML file and its JSON twin read the same.
func TestParseYAMLAndJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, src string }{{"s.yaml", shippingYAML}, {"s.json", shippingJSON}} {
		f, err := Parse(tc.name, []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f.Name != "shipping" || f.Graph != "shipping.json" || f.Identity != "ann" || !f.Clock.Equal(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: header %+v", tc.name, f)
		}
		if len(f.Mocks) != 3 || len(f.Mocks[2].Sequence) != 2 || f.Mocks[2].Sequence[0].Error.Code != "TIMEOUT" || string(f.Mocks[2].Sequence[1].Response) != `"ok"` || string(f.Mocks[0].Response) != `{"data":[{"description":"Lamp","order_id":"A"}],"status":200}` ||
			f.Mocks[1].Error == nil || f.Mocks[1].Error.Code != "TIMEOUT" {
			t.Errorf("%s: mocks %+v", tc.name, f.Mocks)
		}
		if len(f.Turns) != 2 {
			t.Fatalf("%s: %d turns", tc.name, len(f.Turns))
		}
		t1, t2 := f.Turns[0], f.Turns[1]
		if t1.Expect.Status != "AWAITING_INPUT" || strings.Join(t1.Expect.Path, ",") != "start,find_orders,ask" ||
			t1.Expect.Messages[0].Contains != "Lamp" || t1.Expect.Messages[0].Mood != "helpful" {
			t.Errorf("%s: turn 1 %+v", tc.name, t1)
		}
		if t2.Message != "1" || t2.Advance != 90*time.Second || t2.Identity == nil || *t2.Identity != "" ||
			!t2.Expect.HasPath || len(t2.Expect.Path) != 0 || t2.Expect.Vars["chosen"].(map[string]any)["slot"] != 1.0 ||
			*t2.Expect.Messages[0].Exact != "exact text" || t2.Expect.Messages[1].Matches == nil ||
			t2.Expect.Trace[0] != (TraceMatch{Node: "fetch_status", Status: "FAILED_HANDLED", ErrorClass: "TIMEOUT"}) ||
			t2.Expect.SessionEnded == nil || *t2.Expect.SessionEnded {
			t.Errorf("%s: turn 2 %+v", tc.name, t2)
		}
	}
}

// A malformed file is refused with the file, the line and column, and the
// field's path.
func TestParseErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, src, want string
	}{
		{"unknown top field", "graph: g.json\ngrpah: x\nturns: [{message: hi}]\n", "f.yaml:2:1: grpah: unknown field; known: name, graph"},
		{"unknown turn field", "graph: g.json\nturns:\n  - message: hi\n    expct: {}\n", "f.yaml:4:5: turns[0].expct: unknown field"},
		{"unknown expect field", "graph: g.json\nturns:\n  - message: hi\n    expect: {statu: COMPLETED}\n", "f.yaml:4:14: turns[0].expect.statu: unknown field"},
		{"repeated field", "graph: g.json\ngraph: h.json\nturns: [{message: hi}]\n", "f.yaml:2:1: graph: given twice"},
		{"no graph", "turns: [{message: hi}]\n", "f.yaml:1:1: graph: is required"},
		{"graph and workflow", "graph: g.json\nworkflow: Help\nturns: [{message: hi}]\n", "f.yaml:2:11: workflow: give graph or workflow, not both"},
		{"no turns", "graph: g.json\n", "turns: is required"},
		{"empty turns", "graph: g.json\nturns: []\n", "f.yaml:2:8: turns: want a list of at least one turn"},
		{"bad status", "graph: g.json\nturns:\n  - expect: {status: DONE}\n", "f.yaml:3:22: turns[0].expect.status: unknown run status \"DONE\""},
		{"bad regexp", "graph: g.json\nturns:\n  - expect: {messages: [{matches: \"(\"}]}\n", "turns[0].expect.messages[0].matches: not a regular expression"},
		{"two matchers", "graph: g.json\nturns:\n  - expect: {messages: [{exact: a, contains: b}]}\n", "turns[0].expect.messages[0]: give one of exact, contains and matches"},
		{"empty contains", "graph: g.json\nturns:\n  - expect: {messages: [{contains: \"\"}]}\n", "contains: is empty"},
		{"bad code", "graph: g.json\nmocks: {a: {mockError: {code: SLOW}}}\nturns: [{message: hi}]\n", "f.yaml:2:31: mocks.a.mockError.code: unknown failure code \"SLOW\""},
		{"both mocks", "graph: g.json\nmocks: {a: {mockResponse: 1, mockError: {code: TIMEOUT}}}\nturns: [{message: hi}]\n", "mocks.a: give exactly one of mockResponse, mockError and sequence"},
		{"sequence and mock", "graph: g.json\nmocks: {a: {mockResponse: 1, sequence: [{mockResponse: 2}]}}\nturns: [{message: hi}]\n", "mocks.a.sequence: give a sequence or one mockResponse or mockError, not both"},
		{"empty sequence", "graph: g.json\nmocks: {a: {sequence: []}}\nturns: [{message: hi}]\n", "mocks.a.sequence: want at least one outcome"},
		{"sequence item", "graph: g.json\nmocks: {a: {sequence: [{}]}}\nturns: [{message: hi}]\n", "mocks.a.sequence[0]: give exactly one of mockResponse and mockError"},
		{"sequence code", "graph: g.json\nmocks: {a: {sequence: [{mockError: {code: SLOW}}]}}\nturns: [{message: hi}]\n", "mocks.a.sequence[0].mockError.code: unknown failure code"},
		{"bad clock", "graph: g.json\nclock: tomorrow\nturns: [{message: hi}]\n", "f.yaml:2:8: clock: want an RFC 3339 time"},
		{"bad advance", "graph: g.json\nturns: [{message: hi, advance: soon}]\n", "turns[0].advance: want a duration"},
		{"message not text", "graph: g.json\nturns: [{message: [a]}]\n", "turns[0].message: want text, got a list"},
		{"trace without node", "graph: g.json\nturns: [{expect: {trace: [{status: FAILED}]}}]\n", "turns[0].expect.trace[0].node: is required"},
		{"decision and message", "graph: g.json\nturns: [{message: hi, decision: {approve: true}}]\n", "turns[0].decision: a turn sends a message or decides an approval, not both"},
		{"decision needs approve", "graph: g.json\nturns: [{decision: {note: ok}}]\n", "turns[0].decision.approve: is required"},
		{"vars not a mapping", "graph: g.json\nturns: [{expect: {vars: [1]}}]\n", "turns[0].expect.vars: want a mapping"},
		{"not a mapping", "- a\n- b\n", "f.yaml:1:1: scenario: want a mapping"},
		{"empty", "", "the file is empty"},
		{"yaml syntax", "graph: [\n", "f.yaml: yaml:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("f.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// A .json file is held to JSON: a syntax error names its line and column.
func TestParseJSONSyntax(t *testing.T) {
	t.Parallel()
	_, err := Parse("f.json", []byte("{\"graph\": \"g.json\",\n \"turns\": [}\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2, column 12") {
		t.Fatalf("got %v", err)
	}
}

// Aliases cannot make a small file a huge value.
func TestParseAliasBomb(t *testing.T) {
	t.Parallel()
	src := "graph: g\nturns:\n  - expect:\n      vars:\n        a: &a [x, x, x, x, x, x, x, x, x, x]\n        b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n        c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n        d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n        e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n        f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	_, err := Parse("f.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "more than 100000 values") {
		t.Fatalf("got %v", err)
	}
}
