package graph

import "github.com/wetel/wetel/node"

// nodeView returns node i as its type's rules see it, built once per check.
func (v *view) nodeView(i int) *node.View {
	if v.views[i] == nil {
		n := &v.g.Nodes[i]
		nv := &node.View{ID: n.ID, Type: n.Type, Config: v.cfgs[i], Graph: v}
		for _, e := range v.out[n.ID] {
			nv.Out = append(nv.Out, node.Edge{ID: e.ID, Target: e.Target, Label: e.Label})
		}
		v.views[i] = nv
	}
	return v.views[i]
}

// Node implements node.Nodes for the rules.
func (v *view) Node(id string) (string, map[string]any, bool) {
	i := v.index(id)
	if i < 0 {
		return "", nil, false
	}
	return v.g.Nodes[i].Type, v.cfgs[i], true
}

// Out implements node.Nodes for the rules.
func (v *view) Out(id string) []node.Edge {
	var out []node.Edge
	for _, e := range v.out[id] {
		out = append(out, node.Edge{ID: e.ID, Target: e.Target, Label: e.Label})
	}
	return out
}

// Branches implements node.Nodes for the rules.
func (v *view) Branches(id string) bool {
	i := v.index(id)
	if i < 0 || v.specs[i] == nil {
		return false
	}
	switch v.specs[i].Routing {
	case node.RouteValue, node.RouteBool, node.RouteCase:
		return true
	}
	return false
}

// fromRules gives the problems a rule reported about node id their node.
func fromRules(id string, ps []node.Problem) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Code: p.Code, NodeID: id, EdgeID: p.EdgeID, Field: p.Field, Message: p.Message}
	}
	return out
}

// runRule runs one of node i's hooks, if its type has it.
func (v *view) runRule(i int, hook func(*node.View) []node.Problem) []Problem {
	if hook == nil {
		return nil
	}
	return fromRules(v.g.Nodes[i].ID, hook(v.nodeView(i)))
}

// routesOn reports whether node i routes on label with its config, so an
// edge with that label is its own, never a failure route.
func (v *view) routesOn(i int, label string) bool {
	spec := v.specs[i]
	if spec.Rules.AnyLabel {
		return true
	}
	for _, l := range spec.RoutesOn(v.nodeView(i)) {
		if l == label {
			return true
		}
	}
	return false
}

// nodeRef is a config field naming another node (node.FormatNodeID).
type nodeRef struct{ field, target string }

// refs lists node i's references to other nodes: an implicit edge to each
// (a router's defaultTarget) that the reach and loop checks follow.
func (v *view) refs(i int) []nodeRef {
	spec, cfg := v.specs[i], v.cfgs[i]
	if spec == nil || cfg == nil {
		return nil
	}
	var out []nodeRef
	for _, f := range spec.Fields {
		if f.Format != node.FormatNodeID {
			continue
		}
		if t, ok := cfg[f.Name].(string); ok && t != "" {
			out = append(out, nodeRef{f.Name, t})
		}
	}
	return out
}
