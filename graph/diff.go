package graph

import (
	"bytes"
	"encoding/json"

	"github.com/wetel/wetel/internal/canon"
)

// Diff is what changed from one graph to another, by node and edge id.
type Diff struct {
	NodesAdded, NodesRemoved, NodesChanged []string
	EdgesAdded, EdgesRemoved, EdgesChanged []string
}

// Compare lists the nodes and edges of to that from lacks (added), those of
// from that to lacks (removed), and those in both that differ (changed: a
// node's type, label, config or position; an edge's ends or label). Configs
// are compared as JSON values, so formatting and key order do not count.
// Each list is in the document order of the graph the ids come from.
func Compare(from, to *Graph) Diff {
	d := Diff{NodesAdded: []string{}, NodesRemoved: []string{}, NodesChanged: []string{},
		EdgesAdded: []string{}, EdgesRemoved: []string{}, EdgesChanged: []string{}}
	old := make(map[string]*Node, len(from.Nodes))
	for i := range from.Nodes {
		old[from.Nodes[i].ID] = &from.Nodes[i]
	}
	seen := make(map[string]bool, len(to.Nodes))
	for i := range to.Nodes {
		n := &to.Nodes[i]
		seen[n.ID] = true
		switch o, ok := old[n.ID]; {
		case !ok:
			d.NodesAdded = append(d.NodesAdded, n.ID)
		case !sameNode(o, n):
			d.NodesChanged = append(d.NodesChanged, n.ID)
		}
	}
	for _, n := range from.Nodes {
		if !seen[n.ID] {
			d.NodesRemoved = append(d.NodesRemoved, n.ID)
		}
	}
	oldEdges := make(map[string]Edge, len(from.Edges))
	for _, e := range from.Edges {
		oldEdges[e.ID] = e
	}
	seenEdge := make(map[string]bool, len(to.Edges))
	for _, e := range to.Edges {
		seenEdge[e.ID] = true
		switch o, ok := oldEdges[e.ID]; {
		case !ok:
			d.EdgesAdded = append(d.EdgesAdded, e.ID)
		case o != e:
			d.EdgesChanged = append(d.EdgesChanged, e.ID)
		}
	}
	for _, e := range from.Edges {
		if !seenEdge[e.ID] {
			d.EdgesRemoved = append(d.EdgesRemoved, e.ID)
		}
	}
	return d
}

func sameNode(a, b *Node) bool {
	if a.Type != b.Type || a.Label != b.Label {
		return false
	}
	if (a.Position == nil) != (b.Position == nil) || (a.Position != nil && *a.Position != *b.Position) {
		return false
	}
	return sameJSON(a.Config, b.Config)
}

// sameJSON compares two configs as JSON values; an absent config equals an
// empty object, as the engine reads them alike.
func sameJSON(a, b json.RawMessage) bool {
	eq, err := canon.Equal(orEmpty(a), orEmpty(b))
	return err == nil && eq
}

func orEmpty(b json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(b); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return json.RawMessage(`{}`)
	}
	return b
}
