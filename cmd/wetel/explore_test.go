package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wetel/wetel/graph"
)

// --explore on the shipping example lists each of its paths: an order
// found and reported, the lookup failing, the status call failing, a reply
// matching no option, and the question left unanswered.
func TestExploreShipping(t *testing.T) {
	t.Parallel()
	r := wetel(t, "run", shipping, "--explore", "--message", "where are my orders?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	checkGolden(t, "explore/shipping", r.stdout)
}

// A branch the mocks cannot steer to is reported, edge and node.
func TestExploreReportsUnreachedBranch(t *testing.T) {
	t.Parallel()
	r := wetel(t, "run", "testdata/explore/shipping-lost.json", "--explore")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"edges no explored path took", "  e8: is_lost → report_lost (true)\n", "nodes no explored path reached: report_lost\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("missing %q in:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "e9:") {
		t.Errorf("the false branch was taken but is reported:\n%s", r.stdout)
	}
}

// The router's routes are explored through the classifier's mock: both
// of order-status's routes, and the bound stops the walk.
func TestExploreRouterAndBound(t *testing.T) {
	t.Parallel()
	r := wetel(t, "run", "../../examples/order-status.json", "--explore")
	if r.code != 0 || !strings.Contains(r.stdout, "2 distinct path(s)") || !strings.Contains(r.stdout, `classify: mockResponse "general" (router dispatch's route)`) ||
		!strings.Contains(r.stdout, "every edge was taken") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = wetel(t, "run", shipping, "--explore", "--max-paths", "2")
	if r.code != 0 || !strings.Contains(r.stdout, "from 2 explored, stopped at --max-paths 2: there are more") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := wetel(t, "run", shipping, "--explore", "--db", filepath.Join(t.TempDir(), "x.db")); r.code != 2 {
		t.Errorf("--explore with --db: exit %d", r.code)
	}
	if r := wetel(t, "run", shipping, "--emit-scenarios", t.TempDir()); r.code != 2 || !strings.Contains(r.stderr, "add --explore") {
		t.Errorf("--emit-scenarios without --explore: exit %d: %s", r.code, r.stderr)
	}
}

// --emit-scenarios writes scenarios that pass under wetel test and that
// together take every labelled edge of every example graph.
func TestEmittedScenariosPassAndCover(t *testing.T) {
	t.Parallel()
	graphs, _ := filepath.Glob("../../examples/*.json")
	for _, file := range graphs {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := wetel(t, "run", file, "--explore", "--emit-scenarios", dir)
			if r.code != 0 {
				t.Fatalf("explore: exit %d: %s", r.code, r.stderr)
			}
			if r := wetel(t, "test", dir); r.code != 0 {
				t.Fatalf("the emitted scenarios fail:\n%s%s", r.stdout, r.stderr)
			}
			g, err := loadGraph(file)
			if err != nil {
				t.Fatal(err)
			}
			taken := coveredByScenarios(t, g, dir)
			for _, e := range g.Edges {
				if e.Label != "" && !taken[e.ID] {
					t.Errorf("no emitted scenario takes %s (%s → %s, %s)", e.ID, e.Source, e.Target, e.Label)
				}
			}
		})
	}
}

// coveredByScenarios replays the emitted scenarios' paths through the
// explorer's own edge inference.
func coveredByScenarios(t *testing.T, g *graph.Graph, dir string) map[string]bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.scenario.yaml"))
	taken := map[string]bool{}
	for _, f := range files {
		res := runScenarioFile(t.Context(), f)
		if !res.Passed() {
			t.Fatalf("%s failed", f)
		}
		p := &exploredPath{}
		for _, tr := range res.Turns {
			et := exploredTurn{message: tr.Turn.Message}
			for _, run := range tr.Observed.Runs {
				er := exploredRun{id: run.ID, status: run.Status}
				for _, row := range run.Trace {
					er.rows = append(er.rows, rowHead{NodeID: row.NodeID, Status: row.Status})
				}
				// A resumed run follows the question of the turn before.
				if n := len(p.turns); n > 0 {
					prev := p.turns[n-1].runs
					if len(prev) > 0 && prev[len(prev)-1].status == "AWAITING_INPUT" {
						er.resumedFrom = prev[len(prev)-1].id
					}
				}
				et.runs = append(et.runs, er)
			}
			p.turns = append(p.turns, et)
		}
		for id := range edgesTaken(g, p) {
			taken[id] = true
		}
	}
	if len(files) == 0 {
		b, _ := os.ReadDir(dir)
		t.Fatalf("no scenarios written: %v", b)
	}
	return taken
}

// BenchmarkExplore200 explores a 200-node graph: 7 actions with failure
// edges along a chain of set_variable nodes, 128 paths of about 190
// dispatches each. It reports paths explored per second.
func BenchmarkExplore200(b *testing.B) {
	g, err := loadGraph("testdata/explore/chain-200.json")
	if err != nil {
		b.Fatal(err)
	}
	x, err := newExplorer(g, "hello", "")
	if err != nil {
		b.Fatal(err)
	}
	paths := 0
	b.ResetTimer()
	for range b.N {
		p, _, err := x.explore(b.Context(), defaultMaxPaths)
		if err != nil {
			b.Fatal(err)
		}
		paths += len(p)
	}
	b.ReportMetric(float64(paths)/b.Elapsed().Seconds(), "paths/s")
}

// A switch's cases and a condition's test are seen where they compare the
// classifier's output with a string: each case is explored; a test that
// also needs data the mocks do not steer (turnIndex > 5) is reported.
func TestExploreSwitchCases(t *testing.T) {
	t.Parallel()
	r := wetel(t, "run", "testdata/explore/triage-switch.json", "--explore")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"3 distinct path(s)", `classify: mockResponse "refund" (switch route's case refund)`,
		`classify: mockResponse "cancel" (switch route's case cancel)`, "  e6: urgent → escalate (true)\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("missing %q in:\n%s", want, r.stdout)
		}
	}
	for _, e := range []string{"e3:", "e4:", "e5:", "e7:"} {
		if strings.Contains(r.stdout, "  "+e) {
			t.Errorf("%s was taken but is reported:\n%s", e, r.stdout)
		}
	}
}

func TestLiteralsFor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		expr, v string
		want    string
	}{
		{`intent == "refund"`, "intent", "refund"},
		{`"cancel" == intent && x`, "intent", "cancel"},
		{`a.intent == "x" || intent2 == "y"`, "intent", ""},
		{`intent == "say \"hi\""`, "intent", `say "hi"`},
		{`intent != "no"`, "intent", ""},
		{`(intent=="a")||(intent == "b")`, "intent", "a,b"},
	}
	for _, tc := range cases {
		if got := strings.Join(literalsFor(tc.expr, tc.v), ","); got != tc.want {
			t.Errorf("literalsFor(%q) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}
