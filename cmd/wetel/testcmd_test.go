package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every graph in examples/ has scenarios, and they pass: what .ci/run
// runs through wetel test.
func TestExampleScenariosPass(t *testing.T) {
	t.Parallel()
	junit := filepath.Join(t.TempDir(), "report.xml")
	r := wetel(t, "test", "../../examples/scenarios", "--junit", junit)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	graphs, _ := filepath.Glob("../../examples/*.json")
	for _, g := range graphs {
		name := filepath.Base(g)
		covered := false
		files, _ := filepath.Glob("../../examples/scenarios/*.scenario.yaml")
		for _, f := range files {
			b, _ := os.ReadFile(f)
			if strings.Contains(string(b), "graph: ../"+name+"\n") {
				covered = true
			}
		}
		if !covered {
			t.Errorf("examples/%s has no scenario under examples/scenarios", name)
		}
	}
	var suite struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Cases    []struct {
			Name string `xml:"name,attr"`
		} `xml:"testcase"`
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, &suite); err != nil {
		t.Fatalf("the JUnit report is not XML: %v\n%s", err, b)
	}
	if suite.Tests < len(graphs) || suite.Failures != 0 || len(suite.Cases) != suite.Tests {
		t.Errorf("JUnit: %d tests, %d failures, %d cases", suite.Tests, suite.Failures, len(suite.Cases))
	}
}

// A scenario that does not hold prints each differing turn, with the node
// where the paths part, and exits 1; JUnit records the failure.
func TestScenarioFailureReport(t *testing.T) {
	t.Parallel()
	junit := filepath.Join(t.TempDir(), "report.xml")
	r := wetel(t, "test", "testdata/test", "--junit", junit, "--parallel", "1")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1:\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkGolden(t, "test/report", r.stdout)
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `tests="3" failures="1"`) || !strings.Contains(string(b), "<failure message=\"turn 1: status: expected COMPLETED, got AWAITING_INPUT\"") {
		t.Errorf("JUnit report:\n%s", b)
	}
}

// Usage and unreadable files.
func TestScenarioCommandErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.scenario.yaml")
	if err := os.WriteFile(bad, []byte("graph: nowhere.json\nturns:\n  - message: hi\n    expect: {staus: COMPLETED}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.scenario.yaml")
	if err := os.WriteFile(missing, []byte("graph: nowhere.json\nturns: [{message: hi}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	decide := filepath.Join(dir, "decide.scenario.yaml")
	// The decision scenario reads a real graph.
	decideGraph, _ := filepath.Abs("../../examples/order-status.json")
	if err := os.WriteFile(decide, []byte("graph: "+decideGraph+"\nturns: [{decision: {approve: true}}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seqOnResponse := filepath.Join(dir, "seq.scenario.yaml")
	if err := os.WriteFile(seqOnResponse, []byte("graph: "+decideGraph+"\nmocks: {respond_general: {sequence: [{mockResponse: 1}]}}\nturns: [{message: hi}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"test", seqOnResponse}, 1, `mock sequence for node "respond_general": a response node cannot be mocked; only`},
		{[]string{"test"}, 2, "usage: wetel test PATH..."},
		{[]string{"test", filepath.Join(dir, "none")}, 2, "no such file"},
		{[]string{"test", t.TempDir()}, 2, "no scenario files"},
		{[]string{"test", bad}, 1, "bad.scenario.yaml:4:14: turns[0].expect.staus: unknown field"},
		{[]string{"test", missing}, 1, "nowhere.json: open"},
		{[]string{"test", decide}, 1, "approval nodes cannot run offline yet"},
	}
	for _, tc := range cases {
		r := wetel(t, tc.args...)
		if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
			t.Errorf("wetel %s: exit %d, want %d with %q:\n%s%s", strings.Join(tc.args, " "), r.code, tc.code, tc.want, r.stdout, r.stderr)
		}
	}
}

// The scenario docs/testing.md shows first passes, so the page stays true.
func TestDocsScenarioPasses(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "```yaml\n")
	block, _, _ := strings.Cut(after, "```")
	if !ok || !strings.Contains(block, "graph: ../shipping-await-reply.json\n") {
		t.Fatalf("docs/testing.md has no scenario on the shipping example first:\n%s", block)
	}
	graphPath, _ := filepath.Abs("../../examples/shipping-await-reply.json")
	block = strings.Replace(block, "../shipping-await-reply.json", graphPath, 1)
	path := filepath.Join(t.TempDir(), "doc.scenario.yaml")
	if err := os.WriteFile(path, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := wetel(t, "test", path); r.code != 0 {
		t.Fatalf("the docs' scenario fails:\n%s%s", r.stdout, r.stderr)
	}
}
