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
			to := turnOutput{Message: tr.Turn.Message}
			for _, run := range tr.Observed.Runs {
				rows := make([]string, 0, len(run.Trace))
				for _, row := range run.Trace {
					rows = append(rows, `{"nodeId":"`+row.NodeID+`","status":"`+row.Status+`"}`)
				}
				to.Runs = append(to.Runs, runJSON{ID: run.ID, Status: run.Status, NodeTrace: []byte("[" + strings.Join(rows, ",") + "]")})
			}
			p.turns = append(p.turns, to)
		}
		// A resumed run follows the run it resumed in the next turn.
		for i := 1; i < len(p.turns); i++ {
			prev := p.turns[i-1].Runs
			if len(prev) > 0 && prev[len(prev)-1].Status == "AWAITING_INPUT" && len(p.turns[i].Runs) > 0 {
				id := prev[len(prev)-1].ID
				p.turns[i].Runs[0].ResumedFromRunID = &id
			}
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
