package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/vocab"
)

// defaultMaxPaths bounds an exploration unless --max-paths says otherwise.
const defaultMaxPaths = 256

type exploreOptions struct {
	file, message, emitDir, failureResponse string
	maxPaths                                int
}

// cmdExplore is `wetel run FILE --explore`: it prints each distinct path
// with its messages, the edges and nodes no path reached, and with
// --emit-scenarios writes a small set of scenarios taking every labelled
// edge that some path took.
func cmdExplore(ctx context.Context, g *graph.Graph, o exploreOptions, stdout, stderr io.Writer) int {
	x, err := newExplorer(g, o.message, o.failureResponse)
	if err != nil {
		fmt.Fprintf(stderr, "wetel run --explore: %v\n", err)
		return 1
	}
	start := time.Now()
	paths, bounded, err := x.explore(ctx, o.maxPaths)
	if err != nil {
		fmt.Fprintf(stderr, "wetel run --explore: %v\n", err)
		return 1
	}
	elapsed := time.Since(start)
	distinct := distinctPaths(paths)
	fmt.Fprintf(stdout, "%s: %d distinct path(s) from %d explored", o.file, len(distinct), len(paths))
	if bounded {
		fmt.Fprintf(stdout, ", stopped at --max-paths %d: there are more", o.maxPaths)
	}
	fmt.Fprintf(stdout, "\n")
	taken := map[string]bool{}
	for i, p := range distinct {
		printPath(stdout, i+1, p)
		for id := range edgesTaken(g, p) {
			taken[id] = true
		}
	}
	printUnreached(stdout, g, taken)
	fmt.Fprintf(stderr, "explored %d path(s) in %s\n", len(paths), elapsed.Round(time.Millisecond))
	if o.emitDir != "" {
		n, err := emitScenarios(g, o.file, o.emitDir, distinct)
		if err != nil {
			fmt.Fprintf(stderr, "wetel run --emit-scenarios: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "\nwrote %d scenario(s) to %s\n", n, o.emitDir)
	}
	return 0
}

// pathKey is what makes two paths the same: each turn's status and nodes.
func pathKey(p *exploredPath) string {
	var b strings.Builder
	for _, t := range p.turns {
		for _, r := range t.runs {
			b.WriteString(r.status)
			for _, row := range r.rows {
				b.WriteString(" " + row.NodeID)
			}
		}
		b.WriteString(" | ")
	}
	return b.String()
}

func distinctPaths(paths []*exploredPath) []*exploredPath {
	seen := map[string]bool{}
	var out []*exploredPath
	for _, p := range paths {
		if k := pathKey(p); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

func printPath(w io.Writer, n int, p *exploredPath) {
	fmt.Fprintf(w, "\npath %d:\n", n)
	if len(p.choices) > 0 {
		fmt.Fprintf(w, "  decisions: %s\n", strings.Join(p.choices, "; "))
	}
	for i, t := range p.turns {
		for _, r := range t.runs {
			var ids []string
			for _, row := range r.rows {
				ids = append(ids, row.NodeID)
			}
			fmt.Fprintf(w, "  turn %d %q → %s: %s\n", i+1, t.message, r.status, arrowsOf(ids))
		}
		for _, m := range t.messages {
			fmt.Fprintf(w, "    says %q\n", m)
		}
	}
}

func arrowsOf(ids []string) string {
	if len(ids) == 0 {
		return "(no nodes)"
	}
	return strings.Join(ids, " → ")
}

func printUnreached(w io.Writer, g *graph.Graph, taken map[string]bool) {
	reached := map[string]bool{}
	var missed []string
	for _, e := range g.Edges {
		if taken[e.ID] {
			reached[e.Source], reached[e.Target] = true, true
			continue
		}
		s := fmt.Sprintf("  %s: %s → %s", e.ID, e.Source, e.Target)
		if e.Label != "" {
			s += " (" + e.Label + ")"
		}
		missed = append(missed, s)
	}
	if len(missed) == 0 {
		fmt.Fprintf(w, "\nevery edge was taken by some path\n")
		return
	}
	fmt.Fprintf(w, "\nedges no explored path took (a condition or switch the mocks cannot steer, or a branch nothing reaches):\n%s\n", strings.Join(missed, "\n"))
	var nodes []string
	for _, n := range g.Nodes {
		if !reached[n.ID] && len(g.Edges) > 0 && n.Type != "start" {
			nodes = append(nodes, n.ID)
		}
	}
	if len(nodes) > 0 {
		fmt.Fprintf(w, "nodes no explored path reached: %s\n", strings.Join(nodes, ", "))
	}
}

// edgesTaken infers the edges a path took from its traces: a row's status
// says which labels it could follow (failure after FAILED_HANDLED,
// loop_exhausted after VISIT_LIMIT_REACHED, any other label after
// COMPLETED) and the row after it says where it went; a question's row is
// followed by the first row of the run its answer resumed. Unlabelled
// edges of a node that follows them all are taken when their target ran
// later in the same run.
func edgesTaken(g *graph.Graph, p *exploredPath) map[string]bool {
	taken := map[string]bool{}
	var runs []exploredRun
	for _, t := range p.turns {
		runs = append(runs, t.runs...)
	}
	for ri, r := range runs {
		rows := r.rows
		for i, row := range rows {
			next := ""
			if i+1 < len(rows) {
				next = rows[i+1].NodeID
			} else if ri+1 < len(runs) && runs[ri+1].resumedFrom == r.id && len(runs[ri+1].rows) > 0 {
				next = runs[ri+1].rows[0].NodeID
			}
			for _, e := range g.Outgoing(row.NodeID) {
				if edgeFits(e, row.Status, next) || (e.Label == "" && row.Status == vocab.TraceCompleted && ranAfter(rows[i+1:], e.Target)) {
					taken[e.ID] = true
				}
			}
		}
	}
	return taken
}

func edgeFits(e graph.Edge, status, next string) bool {
	if e.Target != next || next == "" {
		return false
	}
	switch status {
	case vocab.TraceFailedHandled:
		return e.Label == vocab.LabelFailure
	case vocab.TraceVisitLimitReached:
		return e.Label == vocab.LabelLoopExhausted
	case vocab.TraceCompleted:
		return e.Label != vocab.LabelFailure && e.Label != vocab.LabelLoopExhausted
	}
	return false
}

func ranAfter(rows []rowHead, id string) bool {
	for _, r := range rows {
		if r.NodeID == id {
			return true
		}
	}
	return false
}
