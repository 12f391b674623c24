package gql

import (
	"github.com/wetel/wetel/artifact"
	"github.com/wetel/wetel/store"
)

// shownArtifact is an artifact's metadata; the content is at its url.
func shownArtifact(a store.Artifact) *Artifact {
	return &Artifact{ID: int(a.ID), Kind: a.Kind, Name: a.Name, ContentType: a.ContentType, Size: int(a.Size),
		CreatedAt: a.CreatedAt, URL: artifact.URL(a.ID)}
}
