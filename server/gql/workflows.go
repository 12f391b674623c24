package gql

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
)

// decodeGraph parses a graph document and runs the save checks.
func (r *Resolver) decodeGraph(doc JSON) (*graph.Graph, error) {
	if len(doc) > graph.MaxDocumentBytes {
		return nil, Errorf(CodeLimit, "graph: the document is %d bytes, over the %d-byte limit", len(doc), graph.MaxDocumentBytes)
	}
	g, err := graph.Decode(doc)
	if err != nil {
		return nil, Errorf(CodeValidation, "graph: %v", err)
	}
	if errs := graph.CheckSave(g, r.Registry); len(errs) > 0 {
		return nil, &Error{Code: CodeValidation, Message: "graph: " + errs.Error(), Problems: toProblems(errs)}
	}
	return g, nil
}

func toProblems(ps []graph.Problem) []Problem {
	out := make([]Problem, len(ps))
	for i, p := range ps {
		out[i] = Problem{Code: p.Code, Message: p.Message, NodeID: optStr(p.NodeID), EdgeID: optStr(p.EdgeID), Field: optStr(p.Field)}
	}
	return out
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// publish runs the publish checks on a stored graph document and publishes
// it as the newest version.
func (r *Resolver) publish(ctx context.Context, c Caller, id int, doc json.RawMessage) (*WorkflowVersion, error) {
	g, err := graph.Decode(doc)
	if err != nil {
		return nil, Errorf(CodeValidation, "graph: %v", err)
	}
	if errs := graph.CheckPublish(g, r.Registry); len(errs) > 0 {
		return nil, &Error{Code: CodeValidation, Message: "publishing refused: " + errs.Error(), Problems: toProblems(errs)}
	}
	v, err := r.Store.Publish(ctx, c.WorkspaceID, int64(id), doc, fmt.Sprintf("api-key:%d", c.KeyID))
	if err != nil {
		return nil, storeErr(err, "workflow", id)
	}
	return toVersion(v), nil
}

func (r *Resolver) workflow(ctx context.Context, id int) (Caller, store.Workflow, error) {
	c, err := caller(ctx)
	if err != nil {
		return c, store.Workflow{}, err
	}
	w, err := r.Store.Workflow(ctx, c.WorkspaceID, int64(id))
	return c, w, storeErr(err, "workflow", id)
}

func (r *Resolver) diagnostics(w store.Workflow) (*Diagnostics, error) {
	out := &Diagnostics{Errors: []Problem{}, Warnings: []Problem{}}
	g, err := graph.Decode(w.Draft)
	if err != nil {
		out.Errors = append(out.Errors, Problem{Code: "INVALID_DOCUMENT", Message: err.Error()})
		return out, nil
	}
	out.Errors = toProblems(graph.CheckPublish(g, r.Registry))
	out.Warnings = toProblems(graph.Diagnose(g, r.Registry, graph.At(node.OnServer)))
	out.Publishable = len(out.Errors) == 0
	return out, nil
}

func (r *Resolver) versionDiff(ctx context.Context, c Caller, w store.Workflow, number int) (*WorkflowDiff, error) {
	v, err := r.Store.WorkflowVersion(ctx, c.WorkspaceID, w.ID, number)
	if err != nil {
		return nil, storeErr(err, fmt.Sprintf("version %d of workflow", number), int(w.ID))
	}
	from, err := graph.Decode(v.Graph)
	if err != nil {
		return nil, fmt.Errorf("stored version %d of workflow %d: %w", number, w.ID, err)
	}
	to, err := graph.Decode(w.Draft)
	if err != nil {
		return nil, Errorf(CodeValidation, "the draft does not decode: %v", err)
	}
	d := graph.Compare(from, to)
	return &WorkflowDiff{Version: number, NodesAdded: d.NodesAdded, NodesRemoved: d.NodesRemoved, NodesChanged: d.NodesChanged,
		EdgesAdded: d.EdgesAdded, EdgesRemoved: d.EdgesRemoved, EdgesChanged: d.EdgesChanged}, nil
}

// checkText bounds a free-text field.
func checkText(field, v string, max int) error {
	if len(v) > max {
		return Errorf(CodeLimit, "%s: %d bytes, over the %d-byte limit", field, len(v), max)
	}
	return nil
}

// ownSession answers NOT_FOUND for a session filter naming another
// workspace's session, rather than an empty list.
func (r *Resolver) ownSession(ctx context.Context, c Caller, id *int) error {
	if id == nil {
		return nil
	}
	_, err := r.Store.Session(ctx, c.WorkspaceID, int64(*id))
	return storeErr(err, "session", *id)
}

// emptyDraft is the draft of a workflow created without a graph.
const emptyDraft = `{"nodes":[],"edges":[]}`
