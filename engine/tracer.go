package engine

import "context"

// Tracer wraps each dispatch of a run, for tracing (package telemetry,
// OpenTelemetry). A run without one pays a nil check per dispatch.
type Tracer interface {
	// StartNode is called before node nodeID of type nodeType executes;
	// the node runs with the context it returns (carrying the node's span,
	// so its calls out propagate it).
	StartNode(ctx context.Context, nodeID, nodeType string) context.Context
	// EndNode is called with that context once the dispatch's trace row is
	// final. The row is valid only during the call.
	EndNode(ctx context.Context, row *TraceRow)
}

// dispatchTraced is dispatch inside the tracer's span: the node runs under
// the context StartNode returned, and EndNode gets the row dispatch wrote,
// which is always the trace's last (a dispatch appends exactly one row, and
// nothing after it). The untraced loop never comes here, so tracing off
// costs one nil check per dispatch and no change to dispatch itself.
func (r *run) dispatchTraced(ctx context.Context, i int) bool {
	pn := &r.p.nodes[i]
	ctx = r.tracer.StartNode(ctx, pn.id, pn.typ)
	goOn := r.dispatch(ctx, i)
	r.tracer.EndNode(ctx, &r.res.NodeTrace[len(r.res.NodeTrace)-1])
	return goOn
}
