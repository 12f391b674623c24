// Package gql is the GraphQL API: the schema in schema.graphqls, the code
// gqlgen generates from it (generated.go, models_gen.go), and the
// resolvers. Every resolver acts for the caller in the request context and
// reads and writes only the caller's workspace.
package gql

import (
	"context"
	"log/slog"

	"github.com/wetel/wetel/events"
	"github.com/wetel/wetel/mcpclient"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
)

// Resolver holds what the resolvers use.
type Resolver struct {
	Store    store.Store
	Turns    *turn.Service
	Registry *node.Registry
	Hub      *events.Hub
	Logger   *slog.Logger
	// Forget drops a revoked key from the authentication cache.
	Forget func(keyID int64)
	// Publish sends a finished turn's events (messages with their ids,
	// RunFinished, TurnComplete) to the session's subscribers.
	Publish func(ctx context.Context, ws, sessionID int64, res turn.TurnResult)
	// Closing is closed when the server shuts down: subscriptions end.
	Closing <-chan struct{}
	// Box seals the headers of custom actions and the credentials of
	// connectors.
	Box *secrets.Box
	// Connect registers a connector with the workspace's MCP pool and
	// returns its tools; Disconnect forgets one.
	Connect    func(ctx context.Context, ws int64, c mcpclient.Connector) ([]mcpclient.Tool, error)
	Disconnect func(ws, id int64)
	// ModelsChanged is told when a workspace's model configuration changed;
	// EnvModels is the server's own provider (from the environment), used
	// by workspaces without providers of theirs, nil for none.
	ModelsChanged func(ws int64)
	EnvModels     *models.Config
	// CheckURL refuses a provider URL the outbound guard would refuse.
	CheckURL func(ctx context.Context, rawURL string) error

	notReady notReadyWarnings
}

// Caller is who is calling: the workspace and role of an API key.
type Caller struct {
	WorkspaceID int64
	KeyID       int64
	Role        string
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller of ctx.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

// caller returns the authenticated caller, or UNAUTHENTICATED.
func caller(ctx context.Context) (Caller, error) {
	c, ok := CallerFrom(ctx)
	if !ok {
		return Caller{}, Errorf(CodeUnauthenticated, "an API key is required")
	}
	return c, nil
}

// owner returns the caller when it is an OWNER, else FORBIDDEN.
func owner(ctx context.Context, what string) (Caller, error) {
	c, err := caller(ctx)
	if err != nil {
		return c, err
	}
	if c.Role != store.RoleOwner {
		return c, Errorf(CodeForbidden, "%s needs an OWNER key; this key is %s", what, c.Role)
	}
	return c, nil
}
