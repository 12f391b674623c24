//go:build tools

package gql

// The generator, pinned by go.mod: `go generate ./server/gql`.
import _ "github.com/99designs/gqlgen"
