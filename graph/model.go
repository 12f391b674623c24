// Package graph holds the workflow graph model, its strict decoding, the
// checks a draft save and a publish run, and the diagnostics. A graph never
// executes: the engine package runs a checked graph.
package graph

import "encoding/json"

// Limits fixed by the seed ("Graph size and run limits").
const (
	MaxNodes = 200
	MaxEdges = 400
	// MaxDocumentBytes bounds the graph document itself, so a decoder never
	// reads an unbounded body: 200 nodes with 16 KB mocks fit well inside.
	MaxDocumentBytes = 8 << 20
)

// Graph is a workflow's nodes and edges.
type Graph struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// Node is the envelope every node shares.
type Node struct {
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Label    string          `json:"label"`
	Config   json.RawMessage `json:"config"`
	Position *Position       `json:"position,omitempty"`
}

// Position is layout for a graph editor; the engine ignores it.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Edge connects two nodes. Label's meaning depends on the source node's type.
type Edge struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Target string `json:"target"`
	Label  string `json:"label,omitempty"`
}

// NodeByID returns the first node with the id.
func (g *Graph) NodeByID(id string) (*Node, bool) {
	for i := range g.Nodes {
		if g.Nodes[i].ID == id {
			return &g.Nodes[i], true
		}
	}
	return nil, false
}

// Outgoing returns the edges leaving a node, in document order, which is the
// order the engine follows them in.
func (g *Graph) Outgoing(id string) []Edge {
	var out []Edge
	for _, e := range g.Edges {
		if e.Source == id {
			out = append(out, e)
		}
	}
	return out
}
