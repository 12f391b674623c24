package artifact

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/wetel/wetel/store"
)

// Dir keeps artifacts as files in a folder, for the offline commands, which
// have no API to serve them from: each Put writes "<id>-<name>" and calls
// Wrote with its path, so the command can say where it went. Ids count from
// 1 in each Dir, and Get finds only what this Dir wrote.
type Dir struct {
	// Path is the folder; when empty, the first Put makes a new one under
	// the system's temporary folder (left in place: the files are the
	// point).
	Path string
	// Wrote, when set, is told of each artifact written and its path.
	Wrote func(a Artifact, path string)

	mu    sync.Mutex
	items map[int64]dirItem
	next  int64
}

type dirItem struct {
	meta Artifact // without Data
	path string
}

// Put writes a's content to a new file.
func (d *Dir) Put(_ context.Context, a Artifact) (Artifact, error) {
	if len(a.Data) > store.MaxArtifactBytes {
		return Artifact{}, fmt.Errorf("artifact content: at most %d bytes, got %d: %w", store.MaxArtifactBytes, len(a.Data), store.ErrInvalid)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.Path == "" {
		p, err := os.MkdirTemp("", "wetel-artifacts-")
		if err != nil {
			return Artifact{}, fmt.Errorf("making a folder for artifacts: %w", err)
		}
		d.Path = p
	}
	d.next++
	a.ID, a.WorkspaceID, a.Size = d.next, 0, int64(len(a.Data))
	if a.CreatedAt.IsZero() {
		a.CreatedAt = time.Now().UTC()
	}
	path := filepath.Join(d.Path, fmt.Sprintf("%d-%s", a.ID, SafeFilename(a.Name)))
	if err := os.WriteFile(path, a.Data, 0o644); err != nil {
		d.next--
		return Artifact{}, fmt.Errorf("writing artifact %d: %w", a.ID, err)
	}
	if d.items == nil {
		d.items = map[int64]dirItem{}
	}
	meta := a
	meta.Data = nil
	d.items[a.ID] = dirItem{meta: meta, path: path}
	if d.Wrote != nil {
		d.Wrote(a, path)
	}
	return a, nil
}

// Get reads back an artifact this Dir wrote.
func (d *Dir) Get(_ context.Context, id int64) (Artifact, error) {
	d.mu.Lock()
	it, ok := d.items[id]
	d.mu.Unlock()
	if !ok {
		return Artifact{}, fmt.Errorf("artifact %d: %w", id, ErrNotFound)
	}
	data, err := os.ReadFile(it.path)
	if err != nil {
		return Artifact{}, fmt.Errorf("reading artifact %d: %w", id, err)
	}
	a := it.meta
	a.Data = data
	return a, nil
}
