package graph

import (
	"fmt"
	"strings"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// diagnoseLoops finds the graph's cycles (strongly connected components) and
// reports the two loop mistakes the seed warns about: a loop none of whose
// nodes raise maxVisits, and a loop whose nodes disagree, where "the smallest
// one is what actually ends the loop".
func (v *view) diagnoseLoops() []Problem {
	var out []Problem
	for _, comp := range v.cycles() {
		if v.hasPausingNode(comp) {
			// A loop through await_reply or approval spans turns, and each
			// turn is a new run with fresh counters (seed 000: "bounded by
			// the person replying, not by maxVisits").
			continue
		}
		smallest, largest := node.MaxVisitsCeiling+1, 0
		var smallestIDs []string
		for _, i := range comp {
			mv, _ := maxVisitsOf(v.cfgs[i])
			if mv < smallest {
				smallest, smallestIDs = mv, nil
			}
			if mv == smallest {
				smallestIDs = append(smallestIDs, v.g.Nodes[i].ID)
			}
			if mv > largest {
				largest = mv
			}
		}
		names := v.names(comp)
		switch {
		case largest == 1:
			out = append(out, nodeProblem(DiagLoopNeverRepeats, v.g.Nodes[comp[0]].ID, node.FieldMaxVisits,
				"Nodes %s form a loop, but none raises maxVisits, so the back-edge never re-runs them: the second arrival stops that branch.", names))
		case smallest != largest:
			for _, id := range smallestIDs {
				out = append(out, nodeProblem(DiagLoopVisitsDisagree, id, node.FieldMaxVisits,
					"Nodes %s form a loop with different maxVisits (%d to %d); the smallest one, on %q (%d), is what actually ends the loop. Give every node of the loop the same maxVisits.",
					names, smallest, largest, id, smallest))
			}
		}
	}
	return out
}

func (v *view) hasPausingNode(comp []int) bool {
	for _, i := range comp {
		if s := v.specs[i]; s != nil && s.Pauses {
			return true
		}
	}
	return false
}

func (v *view) names(comp []int) string {
	q := make([]string, len(comp))
	for k, i := range comp {
		q[k] = fmt.Sprintf("%q", v.g.Nodes[i].ID)
	}
	return strings.Join(q, ", ")
}

// cycles returns the strongly connected components that contain a cycle, each
// as node indexes in document order. loop_exhausted edges are left out: they
// fire only when a node is refused, so they do not make a loop run again.
func (v *view) cycles() [][]int {
	n := len(v.g.Nodes)
	idx := v.idx
	adj := make([][]int, n)
	self := make([]bool, n)
	for i := range v.g.Nodes {
		for _, e := range v.out[v.g.Nodes[i].ID] {
			if t, ok := idx[e.Target]; ok && e.Label != vocab.LabelLoopExhausted {
				adj[i] = append(adj[i], t)
				self[i] = self[i] || t == i
			}
		}
		for _, r := range v.refs(i) {
			if t, ok := idx[r.target]; ok {
				adj[i] = append(adj[i], t)
				self[i] = self[i] || t == i
			}
		}
	}
	var out [][]int
	for _, comp := range tarjan(adj) {
		if len(comp) > 1 || self[comp[0]] {
			out = append(out, comp)
		}
	}
	return out
}

// tarjan computes strongly connected components iteratively (a recursive
// walk could be driven deep by a 200-node chain; this never recurses).
func tarjan(adj [][]int) [][]int {
	n := len(adj)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var comps [][]int
	var sccStack []int
	next := 0
	type frame struct{ v, edge int }
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		sccStack = append(sccStack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.edge < len(adj[f.v]) {
				w := adj[f.v][f.edge]
				f.edge++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					sccStack = append(sccStack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			vtx := f.v
			call = call[:len(call)-1]
			if len(call) > 0 && low[vtx] < low[call[len(call)-1].v] {
				low[call[len(call)-1].v] = low[vtx]
			}
			if low[vtx] == index[vtx] {
				var comp []int
				for {
					w := sccStack[len(sccStack)-1]
					sccStack = sccStack[:len(sccStack)-1]
					onStack[w] = false
					comp = append(comp, w)
					if w == vtx {
						break
					}
				}
				comps = append(comps, sortInts(comp))
			}
		}
	}
	return comps
}

func sortInts(a []int) []int {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
	return a
}
