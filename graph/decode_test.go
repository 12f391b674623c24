package graph_test

import (
	"os"
	"strings"
	"testing"

	"github.com/wetel/wetel/graph"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeRefusesMalformedDocuments(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"not JSON", `{`, "not valid JSON"},
		{"empty", ``, "empty document"},
		{"unknown top-level field", `{"nodes":[],"edges":[],"extra":1}`, `unknown field "extra"`},
		{"unknown node field", `{"nodes":[{"id":"a","type":"start","config":{},"maxVisits":3}],"edges":[]}`, `nodes[0]: unknown field "maxVisits"`},
		{"unknown edge field", `{"nodes":[],"edges":[{"id":"e","source":"a","target":"b","weight":1}]}`, `edges[0]: unknown field "weight"`},
		{"config not an object", `{"nodes":[{"id":"a","type":"start","config":[]}],"edges":[]}`, `nodes[0] ("a"): config must be a JSON object`},
		{"type not a string", `{"nodes":[{"id":"a","type":3}],"edges":[]}`, `nodes[0]: field "type" must be a string, not a JSON number`},
		{"trailing data", `{"nodes":[],"edges":[]} {}`, "unexpected data after the JSON value (line 1, column 25)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := graph.Decode([]byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("Decode(%q) error = %v, want prefix %q", tc.src, err, tc.want)
			}
		})
	}
}

// A hand-edited document's JSON errors say where they are, in the whole
// document, also when the error is inside one node or edge.
func TestDecodeErrorsGiveLineAndColumn(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, src, want string }{
		{"trailing comma", "{\"nodes\": [\n  {\"id\": \"s\", \"type\": \"start\"},\n]}",
			"not valid JSON: invalid character ']' looking for beginning of value (line 3, column 1)"},
		{"a node's field of the wrong type", "{\"nodes\": [\n  {\"id\": \"s\", \"type\": \"start\"},\n  {\"id\": 7}\n], \"edges\": []}",
			`nodes[1]: field "id" must be a string, not a JSON number (line 3, column 10)`},
		{"an edge's field of the wrong type", "{\"nodes\": [],\n \"edges\": [{\"id\": \"e\"},\n   {\"id\": \"f\", \"source\": false}]}",
			`edges[1]: field "source" must be a string, not a JSON bool (line 3, column 26)`},
		{"cut short", "{\"nodes\": [\n", "not valid JSON: unexpected EOF (line 2, column 1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := graph.Decode([]byte(tc.src))
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Decode(%q) error = %v, want %q", tc.src, err, tc.want)
			}
		})
	}
}

func TestDecodeDefaultsConfigAndKeepsPosition(t *testing.T) {
	t.Parallel()
	g, err := graph.Decode([]byte(`{"nodes":[{"id":"s","type":"start","label":"Start","position":{"x":1,"y":2}}],"edges":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(g.Nodes[0].Config) != "{}" || g.Nodes[0].Position == nil || g.Nodes[0].Position.Y != 2 {
		t.Fatalf("decoded %+v", g.Nodes[0])
	}
}

func TestDecodeRefusesOversizedDocument(t *testing.T) {
	t.Parallel()
	_, err := graph.Decode(make([]byte, graph.MaxDocumentBytes+1))
	if err == nil || !strings.Contains(err.Error(), "exceeding the maximum") {
		t.Fatalf("err = %v", err)
	}
}
