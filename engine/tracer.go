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

// endNode hands the tracer the row just appended. The row is passed from
// the trace, never the dispatch's local: a local whose address reaches an
// interface call would be moved to the heap on every dispatch, traced or
// not.
func (r *run) endNode(ctx context.Context, t Tracer) {
	t.EndNode(ctx, &r.res.NodeTrace[len(r.res.NodeTrace)-1])
}
