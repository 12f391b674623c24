package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// artifactCols is what scanArtifact reads.
// artifactInfo reads NULL in place of the content.
const (
	artifactCols = `id, workspace_id, kind, name, content_type, created_at, size, data`
	artifactInfo = `id, workspace_id, kind, name, content_type, created_at, size, NULL::bytea`
)

func scanArtifact(r scanner) (store.Artifact, error) {
	var a store.Artifact
	err := r.Scan(&a.ID, &a.WorkspaceID, &a.Kind, &a.Name, &a.ContentType, &a.CreatedAt, &a.Size, &a.Data)
	a.CreatedAt = a.CreatedAt.UTC()
	return a, err
}

// PutArtifact stores a as a new artifact; a zero CreatedAt is now. The
// workspace must exist (its foreign key), which is ErrNotFound.
func (s *Store) PutArtifact(ctx context.Context, a store.Artifact) (store.Artifact, error) {
	if err := check.Artifact(&a); err != nil {
		return store.Artifact{}, fmt.Errorf("storing an artifact: %w", err)
	}
	a.CreatedAt, a.Size = orNow(a.CreatedAt), int64(len(a.Data))
	data := a.Data
	if data == nil {
		data = []byte{} // NOT NULL: an empty document is an empty bytea
	}
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO artifacts (workspace_id, kind, name, content_type, size, data, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			a.WorkspaceID, a.Kind, a.Name, a.ContentType, int64(len(data)), data, a.CreatedAt).Scan(&a.ID)
	})
	if err != nil {
		return store.Artifact{}, fmt.Errorf("storing an artifact in workspace %d: %w", a.WorkspaceID, mapErr(err))
	}
	return a, nil
}

// Artifact reads an artifact of ws.
func (s *Store) Artifact(ctx context.Context, ws, id int64) (store.Artifact, error) {
	a, err := readOne(ctx, s, scanArtifact, `SELECT `+artifactCols+` FROM artifacts
		WHERE id = $1 AND workspace_id = $2`, id, ws)
	if err != nil {
		return store.Artifact{}, fmt.Errorf("artifact %d: %w", id, err)
	}
	return a, nil
}

// ArtifactInfo reads an artifact of ws without its content.
func (s *Store) ArtifactInfo(ctx context.Context, ws, id int64) (store.Artifact, error) {
	a, err := readOne(ctx, s, scanArtifact, `SELECT `+artifactInfo+` FROM artifacts
		WHERE id = $1 AND workspace_id = $2`, id, ws)
	if err != nil {
		return store.Artifact{}, fmt.Errorf("artifact %d: %w", id, err)
	}
	return a, nil
}
