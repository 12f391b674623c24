package storetest

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// testArtifacts: an artifact comes back whole in its own workspace only;
// another workspace's id, and an id never used, are ErrNotFound.
func testArtifacts(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	a, b := newTenant(t, s), newTenant(t, s)
	// Every byte value, so a driver that treats content as text fails.
	data := make([]byte, 0, 3*256)
	for i := range 3 * 256 {
		data = append(data, byte(i))
	}
	at := now().Add(-time.Minute)
	in := store.Artifact{WorkspaceID: a.ws, Kind: store.ArtifactPDF, Name: "Ταξίδι trip.pdf",
		ContentType: "application/pdf", Data: data, CreatedAt: at}
	put, err := s.PutArtifact(ctx, in)
	must(t, err)
	if put.ID <= 0 || put.WorkspaceID != a.ws || put.Size != int64(len(data)) || !sameTime(at, put.CreatedAt) {
		t.Errorf("PutArtifact = id %d, workspace %d, created %v", put.ID, put.WorkspaceID, put.CreatedAt)
	}
	got, err := s.Artifact(ctx, a.ws, put.ID)
	must(t, err)
	if got.ID != put.ID || got.WorkspaceID != a.ws || got.Kind != store.ArtifactPDF || got.Name != in.Name ||
		got.ContentType != in.ContentType || got.Size != int64(len(data)) || !bytes.Equal(got.Data, data) || !sameTime(at, got.CreatedAt) {
		t.Errorf("Artifact = %+v (%d bytes), want what was put", got.Name, len(got.Data))
	}
	info, err := s.ArtifactInfo(ctx, a.ws, put.ID)
	must(t, err)
	if info.ID != put.ID || info.Kind != store.ArtifactPDF || info.Name != in.Name || info.ContentType != in.ContentType ||
		info.Size != int64(len(data)) || info.Data != nil || !sameTime(at, info.CreatedAt) {
		t.Errorf("ArtifactInfo = %+v, want the metadata without content", info)
	}

	empty, err := s.PutArtifact(ctx, store.Artifact{WorkspaceID: a.ws, Kind: store.ArtifactMarkdown, Name: "empty.md", ContentType: "text/markdown"})
	must(t, err)
	if empty.ID <= put.ID || empty.CreatedAt.IsZero() {
		t.Errorf("second artifact id %d after %d, created %v", empty.ID, put.ID, empty.CreatedAt)
	}
	if got, err := s.Artifact(ctx, a.ws, empty.ID); err != nil || len(got.Data) != 0 {
		t.Errorf("empty artifact = %d bytes, %v", len(got.Data), err)
	}

	_, err = s.Artifact(ctx, b.ws, put.ID)
	wantErr(t, "another workspace's artifact", err, store.ErrNotFound)
	_, err = s.ArtifactInfo(ctx, b.ws, put.ID)
	wantErr(t, "another workspace's artifact's metadata", err, store.ErrNotFound)
	_, err = s.Artifact(ctx, a.ws, empty.ID+1000)
	wantErr(t, "an artifact never stored", err, store.ErrNotFound)
	_, err = s.PutArtifact(ctx, store.Artifact{WorkspaceID: 1 << 40, Kind: store.ArtifactPDF, Name: "x.pdf", ContentType: "application/pdf"})
	wantErr(t, "an artifact of no workspace", err, store.ErrNotFound)

	for _, c := range []struct {
		name string
		edit func(*store.Artifact)
		want string
	}{
		{"unknown kind", func(x *store.Artifact) { x.Kind = "video" }, "artifact kind"},
		{"empty name", func(x *store.Artifact) { x.Name = " " }, "artifact name"},
		{"long name", func(x *store.Artifact) { x.Name = strings.Repeat("n", store.MaxArtifactName+1) }, "artifact name"},
		{"no content type", func(x *store.Artifact) { x.ContentType = "" }, "content type"},
		{"too large", func(x *store.Artifact) { x.Data = make([]byte, store.MaxArtifactBytes+1) }, "artifact content"},
	} {
		x := in
		c.edit(&x)
		_, err := s.PutArtifact(ctx, x)
		if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: PutArtifact error %v, want ErrInvalid naming %q", c.name, err, c.want)
		}
	}
}
