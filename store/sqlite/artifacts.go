package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// artifactCols is what scanArtifact reads.
// artifactInfo reads an empty BLOB in place of the content.
const (
	artifactCols = `id, workspace_id, kind, name, content_type, created_at, size, data`
	artifactInfo = `id, workspace_id, kind, name, content_type, created_at, size, NULL`
)

// The workspace must exist (its foreign key), which is ErrNotFound.
const insArtifactSQL = `INSERT INTO artifacts (workspace_id, kind, name, content_type, size, data, created_at)
	VALUES (?, ?, ?, ?, ?, ?, ?)`

func scanArtifact(v []driver.Value) (store.Artifact, error) {
	return store.Artifact{ID: i64(v[0]), WorkspaceID: i64(v[1]), Kind: text(v[2]), Name: text(v[3]),
		ContentType: text(v[4]), CreatedAt: msTime(v[5]), Size: i64(v[6]), Data: blob(v[7])}, nil
}

// PutArtifact stores a as a new artifact; a zero CreatedAt is now.
func (s *Store) PutArtifact(ctx context.Context, a store.Artifact) (store.Artifact, error) {
	if err := check.Artifact(&a); err != nil {
		return store.Artifact{}, fmt.Errorf("storing an artifact: %w", err)
	}
	a.CreatedAt, a.Size = fromMs(msOrNow(a.CreatedAt)), int64(len(a.Data))
	data := a.Data
	if data == nil {
		data = []byte{} // NOT NULL: an empty document is an empty BLOB
	}
	err := s.write(ctx, func(c *conn) error {
		var err error
		a.ID, err = c.insert(qInsArtifact, a.WorkspaceID, a.Kind, a.Name, a.ContentType, int64(len(data)), data, ms(a.CreatedAt))
		return err
	})
	if err != nil {
		return store.Artifact{}, fmt.Errorf("storing an artifact in workspace %d: %w", a.WorkspaceID, mapErr(err))
	}
	return a, nil
}

// Artifact reads an artifact of ws.
func (s *Store) Artifact(ctx context.Context, ws, id int64) (store.Artifact, error) {
	a, err := readOne(ctx, s, scanArtifact, qArtifact, id, ws)
	if err != nil {
		return store.Artifact{}, fmt.Errorf("artifact %d: %w", id, err)
	}
	return a, nil
}

// ArtifactInfo reads an artifact of ws without its content.
func (s *Store) ArtifactInfo(ctx context.Context, ws, id int64) (store.Artifact, error) {
	a, err := readOne(ctx, s, scanArtifact, qArtifactInfo, id, ws)
	if err != nil {
		return store.Artifact{}, fmt.Errorf("artifact %d: %w", id, err)
	}
	return a, nil
}
