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
		{"not JSON", `{`, "graph: not valid JSON"},
		{"empty", ``, "graph: empty document"},
		{"unknown top-level field", `{"nodes":[],"edges":[],"extra":1}`, `graph: unknown field "extra"`},
		{"unknown node field", `{"nodes":[{"id":"a","type":"start","config":{},"maxVisits":3}],"edges":[]}`, `nodes[0]: unknown field "maxVisits"`},
		{"unknown edge field", `{"nodes":[],"edges":[{"id":"e","source":"a","target":"b","weight":1}]}`, `edges[0]: unknown field "weight"`},
		{"config not an object", `{"nodes":[{"id":"a","type":"start","config":[]}],"edges":[]}`, `nodes[0] ("a"): config must be a JSON object`},
		{"type not a string", `{"nodes":[{"id":"a","type":3}],"edges":[]}`, `nodes[0]: field "type" must be a string, not a JSON number`},
		{"trailing data", `{"nodes":[],"edges":[]} {}`, "graph: unexpected data after the JSON value"},
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
