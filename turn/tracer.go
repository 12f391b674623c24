package turn

import (
	"context"

	"github.com/wetel/wetel/engine"
)

// Tracer traces turns and, through engine.Tracer, the nodes they dispatch
// (package telemetry). A Service without one pays a nil check per turn.
type Tracer interface {
	engine.Tracer
	// StartTurn is called when a turn's message is taken, before it waits
	// for the session's earlier turns; the turn runs with the context it
	// returns, so node spans are its children.
	StartTurn(ctx context.Context, ws, sessionID int64) context.Context
	// EndTurn is called with that context when the turn is over.
	EndTurn(ctx context.Context, res TurnResult, err error)
}
