// Package artifact is the capability of the node types that make documents
// and images (pdf_export, generate_artifact): a workspace's artifact store,
// looked up in a run's node.Services under StoreKey. The server provides
// one backed by its store per workspace; the offline commands one that
// writes files into a folder (Dir).
package artifact

import (
	"context"
	"fmt"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
)

// Artifact is one stored document or image; the store's row, so a
// provider backed by the store converts nothing.
type Artifact = store.Artifact

// The kinds of artifact (PLATFORM §2).
const (
	Markdown = store.ArtifactMarkdown
	HTML     = store.ArtifactHTML
	Image    = store.ArtifactImage
	PDF      = store.ArtifactPDF
)

// ErrNotFound is Get's error for an id the workspace does not have.
var ErrNotFound = store.ErrNotFound

// Store is one workspace's artifacts. A run only ever sees its own
// workspace's: the provider binds the workspace, so a node cannot name
// another.
type Store interface {
	// Put stores a (its WorkspaceID is ignored: the store's own applies)
	// and returns it with ID, WorkspaceID and CreatedAt set.
	Put(ctx context.Context, a Artifact) (Artifact, error)
	// Get reads an artifact with its content; ErrNotFound (wrapped) when
	// the workspace has none with that id.
	Get(ctx context.Context, id int64) (Artifact, error)
}

// StoreKey is the capability under which a run finds its workspace's
// artifacts.
var StoreKey = node.NewKey[Store]("artifact store")

// ForWorkspace is ws's artifacts in st.
func ForWorkspace(st store.ArtifactStore, ws int64) Store { return wsStore{st: st, ws: ws} }

type wsStore struct {
	st store.ArtifactStore
	ws int64
}

func (s wsStore) Put(ctx context.Context, a Artifact) (Artifact, error) {
	a.WorkspaceID = s.ws
	return s.st.PutArtifact(ctx, a)
}

func (s wsStore) Get(ctx context.Context, id int64) (Artifact, error) {
	return s.st.Artifact(ctx, s.ws, id)
}

// URL is the path that serves an artifact's content to its workspace.
func URL(id int64) string { return fmt.Sprintf("/api/artifacts/%d", id) }
