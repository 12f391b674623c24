package node

import (
	"context"
	"fmt"
	"strings"

	"github.com/wetel/wetel/failure"
)

// Place is a set of the places a run takes place in. A Spec's Runs says where
// the type does its real work; an Exec's Place says where this run is.
type Place uint8

// The places. A type that runs in neither runs in mock mode only (when it is
// Mockable), or nowhere yet.
const (
	// OnServer is `wetel serve`: the store, custom actions and connectors of
	// the workspace.
	OnServer Place = 1 << iota
	// Offline is `wetel run` and `wetel chat --graph`: a local throwaway
	// store, with custom actions and connectors from --workspace.
	Offline
)

// Places lists every place, in the order docs and the API show them.
var Places = []Place{OnServer, Offline}

// Has reports whether p includes every place of q.
func (p Place) Has(q Place) bool { return q != 0 && p&q == q }

// Name is the place's short name ("server", "offline"); a set joins them.
func (p Place) Name() string {
	var names []string
	if p.Has(OnServer) {
		names = append(names, "server")
	}
	if p.Has(Offline) {
		names = append(names, "offline")
	}
	return strings.Join(names, ", ")
}

// Where is the place in a sentence: "not available on this server".
func (p Place) Where() string {
	switch p {
	case OnServer:
		return "on this server"
	case Offline:
		return "offline"
	}
	// A run whose caller did not say where it is (an engine used as a
	// library) is told nothing it cannot know.
	return "here"
}

// NotAvailable is the error of a node whose type does not run at the place
// the run is (Exec.Place). A mockable type says how to run it anyway.
func NotAvailable(s *Spec, nodeID string, at Place) error {
	msg := fmt.Sprintf("%s node %q cannot run: %s nodes are not available %s", s.Type, nodeID, s.Type, at.Where())
	if s.Mockable {
		msg += "; run in mock mode with a mockResponse or mockError on the node"
	} else {
		msg += ", and the type has no mock mode to stand in for it"
	}
	return &failure.Error{Code: failure.Unknown, Message: msg}
}

// notAvailable is the Build of a type that runs nowhere yet (Runs is empty
// and the spec has no Build): every run of it fails with NotAvailable, worded
// for the place the run is.
func notAvailable(s *Spec) func(BuildInput) (Executor, error) {
	return func(b BuildInput) (Executor, error) {
		return ExecutorFunc(func(_ context.Context, x *Exec) (Outcome, error) {
			return Outcome{}, NotAvailable(s, b.NodeID, x.Place)
		}), nil
	}
}
