package gql

import (
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
)

// nodeTypes lists the registry's types as the API shows them.
func (r *Resolver) nodeTypes() []NodeType {
	types := r.Registry.Types()
	out := make([]NodeType, 0, len(types))
	for _, t := range types {
		s, _ := r.Registry.Lookup(t)
		nt := NodeType{Name: s.Type, Summary: s.Summary, RunsOn: []NodePlace{}, Mockable: s.Mockable, Availability: node.RunsText(s)}
		for _, p := range node.Places {
			if s.Runs.Has(p) {
				nt.RunsOn = append(nt.RunsOn, apiPlace(p))
			}
		}
		out = append(out, nt)
	}
	return out
}

func apiPlace(p node.Place) NodePlace {
	if p == node.OnServer {
		return NodePlaceServer
	}
	return NodePlaceOffline
}

// versionWarnings are the diagnostics of a version's graph on this server.
func (r *Resolver) versionWarnings(v *WorkflowVersion) ([]Problem, error) {
	g, err := graph.Decode(v.Graph)
	if err != nil {
		return nil, err
	}
	return toProblems(graph.Diagnose(g, r.Registry, graph.At(node.OnServer))), nil
}
