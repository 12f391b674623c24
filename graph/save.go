package graph

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/wetel/wetel/node"
)

// view is a graph with each node's spec and decoded config, shared by the
// save checks, the publish checks and the diagnostics.
type view struct {
	g     *Graph
	reg   *node.Registry
	specs []*node.Spec       // nil for an unknown type
	cfgs  []map[string]any   // nil when the config is not a JSON object
	out   map[string][]*Edge // outgoing edges by source id, document order
	idx   map[string]int     // first node with each id
	views []*node.View       // as the rules see each node, built on first use
}

func newView(g *Graph, reg *node.Registry) *view {
	v := &view{g: g, reg: reg, specs: make([]*node.Spec, len(g.Nodes)), cfgs: make([]map[string]any, len(g.Nodes)),
		out: map[string][]*Edge{}, idx: make(map[string]int, len(g.Nodes)), views: make([]*node.View, len(g.Nodes))}
	for i := range g.Nodes {
		if _, dup := v.idx[g.Nodes[i].ID]; !dup {
			v.idx[g.Nodes[i].ID] = i
		}
		v.specs[i], _ = reg.Lookup(g.Nodes[i].Type)
		var cfg map[string]any
		if json.Unmarshal(g.Nodes[i].Config, &cfg) == nil {
			if cfg == nil {
				cfg = map[string]any{}
			}
			v.cfgs[i] = cfg
		}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		v.out[e.Source] = append(v.out[e.Source], e)
	}
	return v
}

// CheckSave runs the checks a draft save applies (updateWorkflow): the size
// caps, maxVisits, mockResponse, retry, reserved names, unknown and malformed
// config fields, and each type's own save rules (node.Rules.Save: the
// await_reply edges). A draft may still be missing
// required fields or be disconnected; publishing catches those.
func CheckSave(g *Graph, reg *node.Registry) Errors {
	return newView(g, reg).save()
}

func (v *view) save() Errors {
	var errs Errors
	// Seed: "The size caps apply to a draft save too, not just publish".
	if n := len(v.g.Nodes); n > MaxNodes {
		errs = append(errs, Problem{Code: CodeGraphTooLarge, Message: fmt.Sprintf("Workflow has %d nodes, exceeding the maximum of %d.", n, MaxNodes)})
	}
	if n := len(v.g.Edges); n > MaxEdges {
		errs = append(errs, Problem{Code: CodeGraphTooLarge, Message: fmt.Sprintf("Workflow has %d edges, exceeding the maximum of %d.", n, MaxEdges)})
	}
	for i := range v.g.Nodes {
		errs = append(errs, v.saveNode(i)...)
	}
	return errs
}

func (v *view) saveNode(i int) Errors {
	n := &v.g.Nodes[i]
	if n.ID == "" {
		return Errors{{Code: CodeMissingID, Message: fmt.Sprintf("The node at position %d has no id.", i+1)}}
	}
	spec := v.specs[i]
	if spec == nil {
		return Errors{nodeProblem(CodeUnknownType, n.ID, "type", "Node %q has unknown type %q; node types are lowercase: %s.", n.ID, n.Type, node.JoinNames(v.reg.Types()))}
	}
	cfg := v.cfgs[i]
	if cfg == nil {
		return Errors{nodeProblem(CodeInvalidConfig, n.ID, "config", "Node %q: config must be a JSON object.", n.ID)}
	}
	errs := checkMaxVisits(n.ID, cfg)
	rest := make(map[string]any, len(cfg))
	for k, val := range cfg {
		rest[k] = val
	}
	delete(rest, node.FieldMaxVisits)
	errs = append(errs, v.checkMocks(n, spec, rest)...)
	errs = append(errs, v.checkRetry(i, rest)...)
	for _, fe := range node.ValidateConfig(spec, rest) {
		errs = append(errs, fieldProblem(n, fe))
	}
	return append(errs, v.runRule(i, spec.Rules.Save)...)
}

// checkMaxVisits applies the seed's maxVisits rules with its exact wording.
func checkMaxVisits(id string, cfg map[string]any) Errors {
	raw, ok := cfg[node.FieldMaxVisits]
	if !ok {
		return nil
	}
	n, isNum := raw.(float64)
	shown := jsonText(raw)
	switch {
	case isNum && n > node.MaxVisitsCeiling:
		return Errors{nodeProblem(CodeMaxVisits, id, node.FieldMaxVisits, "Node %q has maxVisits %s, exceeding the maximum of %d.", id, shown, node.MaxVisitsCeiling)}
	case !isNum || n < 1 || n != math.Trunc(n):
		// Seed: "A zero, a negative, a fraction or a value above the ceiling is rejected".
		return Errors{nodeProblem(CodeMaxVisits, id, node.FieldMaxVisits, "Node %q has maxVisits %s; it must be a positive integer from 1 to %d.", id, shown, node.MaxVisitsCeiling)}
	}
	return nil
}

// checkMocks applies the seed's mockResponse rules and removes the mock
// fields from rest when they are not allowed, so they are reported once.
func (v *view) checkMocks(n *Node, spec *node.Spec, rest map[string]any) Errors {
	var errs Errors
	for _, f := range []string{node.FieldMockResponse, node.FieldMockError} {
		val, ok := rest[f]
		if !ok {
			continue
		}
		if !spec.Mockable {
			delete(rest, f)
			errs = append(errs, nodeProblem(CodeMockNotAllowed, n.ID, f, "Node %q: %s is only allowed on %s nodes, not on %s.", n.ID, f,
				node.JoinNames(v.reg.Names(func(s *node.Spec) bool { return s.Mockable })), n.Type))
			continue
		}
		if size := len(jsonText(val)); size > node.MaxMockBytes {
			errs = append(errs, nodeProblem(CodeMockTooLarge, n.ID, f, "Node %q: %s is %d bytes, exceeding the maximum of %d (16 KB).", n.ID, f, size, node.MaxMockBytes))
		}
	}
	_, hasResp := rest[node.FieldMockResponse]
	_, hasErr := rest[node.FieldMockError]
	if hasResp && hasErr {
		errs = append(errs, nodeProblem(CodeInvalidConfig, n.ID, node.FieldMockError, "Node %q: set mockResponse or mockError, not both; a mocked node either succeeds or fails.", n.ID))
	}
	return errs
}

// checkRetry refuses a retry policy where the seed does not allow one.
func (v *view) checkRetry(i int, rest map[string]any) Errors {
	n, spec := &v.g.Nodes[i], v.specs[i]
	val, ok := rest[node.FieldRetry]
	if !ok {
		return nil
	}
	notAllowed := func(why string) Errors {
		delete(rest, node.FieldRetry)
		return Errors{nodeProblem(CodeRetryNotAllowed, n.ID, node.FieldRetry, "Node %q: retry is %s.", n.ID, why)}
	}
	if !spec.Retry {
		return notAllowed(fmt.Sprintf("only allowed on %s nodes, not on %s", node.JoinNames(v.reg.Names(func(s *node.Spec) bool { return s.Retry })), n.Type))
	}
	// Seed: "Saving refuses retry ... on a webhook with async: true, on an action with fetchAsBase64Var".
	if spec.Rules.NoRetry != nil {
		if why := spec.Rules.NoRetry(v.nodeView(i)); why != "" {
			return notAllowed(why)
		}
	}
	if m, ok := val.(map[string]any); ok {
		var errs Errors
		for _, fe := range node.CheckRetry(m) {
			errs = append(errs, fieldProblem(n, fe))
		}
		return errs
	}
	return nil
}

func fieldProblem(n *Node, fe node.FieldError) Problem {
	code := CodeInvalidConfig
	switch fe.Kind {
	case node.FieldUnknown:
		code = CodeUnknownField
	case node.FieldReserved:
		code = CodeReservedName
	}
	return nodeProblem(code, n.ID, fe.Path, "Node %q: config.%s %s.", n.ID, fe.Path, fe.Rule)
}

func jsonText(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
