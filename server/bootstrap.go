package server

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

//go:embed demo/help-desk.json
var demoGraph []byte

// bootstrap sets up a first start: a demo workspace with an OWNER key, a
// published demo workflow and an agent, so that `wetel chat` has a real
// conversation with no model configured. It returns the key to print, or
// "" when the database was already set up. A bootstrap key from the
// environment is added to the first workspace if it is not known yet, so a
// script can always reach a server it started.
func (s *Server) bootstrap(ctx context.Context) (string, error) {
	// Of replicas starting at once on an empty database, one creates the
	// first workspace and sets up the rest; the others find it there.
	ws, created, err := s.store.CreateFirstWorkspace(ctx, "Demo")
	if err != nil {
		return "", fmt.Errorf("creating the demo workspace: %w", err)
	}
	if !created {
		return "", s.adoptBootstrapKey(ctx)
	}
	key := s.cfg.BootstrapKey
	if key == "" {
		if key, err = gql.GenerateKey(); err != nil {
			return "", err
		}
	}
	if _, err := s.store.CreateAPIKey(ctx, store.APIKey{WorkspaceID: ws.ID, Name: "bootstrap", Role: store.RoleOwner,
		Prefix: gql.ShownPrefix(key), Hash: gql.HashKey(key)}); err != nil {
		return "", fmt.Errorf("creating the bootstrap key: %w", err)
	}
	wf, err := s.store.CreateWorkflow(ctx, store.Workflow{WorkspaceID: ws.ID, Name: "Help desk",
		Description: "The demo: a menu asked with await_reply, routed by a switch.", Draft: json.RawMessage(demoGraph), NotifyOnFailure: "NONE"})
	if err != nil {
		return "", fmt.Errorf("creating the demo workflow: %w", err)
	}
	if _, err := s.store.Publish(ctx, ws.ID, wf.ID, json.RawMessage(demoGraph), "bootstrap"); err != nil {
		return "", fmt.Errorf("publishing the demo workflow: %w", err)
	}
	if _, err := s.store.CreateAgent(ctx, store.Agent{WorkspaceID: ws.ID, Name: "Help desk",
		Persona: "A friendly help desk.", WorkflowID: wf.ID}); err != nil {
		return "", fmt.Errorf("creating the demo agent: %w", err)
	}
	if s.cfg.BootstrapKey != "" {
		return "", nil // the operator knows it: never print it
	}
	return key, nil
}

func (s *Server) adoptBootstrapKey(ctx context.Context) error {
	key := s.cfg.BootstrapKey
	if key == "" {
		return nil
	}
	_, err := s.store.APIKeyByHash(ctx, gql.HashKey(key))
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	_, err = s.store.CreateAPIKey(ctx, store.APIKey{WorkspaceID: 1, Name: "bootstrap", Role: store.RoleOwner,
		Prefix: gql.ShownPrefix(key), Hash: gql.HashKey(key)})
	if errors.Is(err, store.ErrConflict) {
		// The key exists and was revoked: a revocation stands.
		s.log.WarnContext(ctx, "WETEL_BOOTSTRAP_API_KEY was revoked; it is not restored")
		return nil
	}
	return err
}
