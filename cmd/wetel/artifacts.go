package main

import (
	"fmt"
	"io"

	"github.com/wetel/wetel/artifact"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/pdfexport"
)

// offlineArtifacts are the artifact capabilities of an offline command: a
// PDF renderer, and an artifact store that writes each artifact as a file
// into a new folder under the system's temporary folder, made on first
// use and kept after the command (an offline store is often thrown away
// at exit, and the file is what the user wants), saying on stderr where
// each went.
func offlineArtifacts(stderr io.Writer) []node.Provision {
	dir := &artifact.Dir{Wrote: func(a artifact.Artifact, path string) {
		fmt.Fprintf(stderr, "artifact %d (%s, %d bytes) written to %s\n", a.ID, a.Kind, len(a.Data), path)
	}}
	return []node.Provision{artifact.StoreKey.With(dir), pdfexport.RendererKey.With(pdfexport.NewRenderer())}
}
