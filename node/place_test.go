package node_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
)

// A type that runs nowhere may leave Build unset: every run of it fails with
// an UNKNOWN error worded for the run's place, and only a mockable type
// points at mock mode.
func TestNotAvailableNamesThePlace(t *testing.T) {
	t.Parallel()
	reg := node.NewRegistry()
	for _, s := range []*node.Spec{
		{Type: "model_call", Mockable: true, MockOutput: "out", Fields: []node.Field{{Name: "out", Kind: node.KindString}}},
		{Type: "lookup"},
	} {
		if err := reg.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		typ   string
		place node.Place
		want  string
	}{
		{"model_call", node.OnServer, `model_call node "n" cannot run: model_call nodes are not available on this server; run in mock mode with a mockResponse or mockError on the node`},
		{"model_call", node.Offline, `model_call node "n" cannot run: model_call nodes are not available offline; run in mock mode with a mockResponse or mockError on the node`},
		{"model_call", 0, `model_call node "n" cannot run: model_call nodes are not available here; run in mock mode with a mockResponse or mockError on the node`},
		{"lookup", node.OnServer, `lookup node "n" cannot run: lookup nodes are not available on this server, and the type has no mock mode to stand in for it`},
	}
	for _, tc := range cases {
		s, _ := reg.Lookup(tc.typ)
		ex, err := s.Build(node.BuildInput{NodeID: "n", Type: tc.typ})
		if err != nil {
			t.Fatal(err)
		}
		_, err = ex.Execute(context.Background(), &node.Exec{NodeID: "n", NodeType: tc.typ, Place: tc.place})
		var fe *failure.Error
		if !errors.As(err, &fe) || fe.Code != failure.Unknown || err.Error() != tc.want {
			t.Errorf("%s at %q: %v\nwant %s", tc.typ, tc.place.Name(), err, tc.want)
		}
		if tc.place == node.OnServer && strings.Contains(err.Error(), "offline") {
			t.Errorf("the server's error says offline: %v", err)
		}
	}
}

// A type that says where it runs must say how: Build is required then.
func TestRunsNeedsBuild(t *testing.T) {
	t.Parallel()
	err := node.NewRegistry().Add(&node.Spec{Type: "half", Runs: node.OnServer})
	if err == nil || !strings.Contains(err.Error(), "no Build function") {
		t.Fatalf("Add = %v", err)
	}
}

func TestPlaceNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p           node.Place
		name, where string
	}{
		{node.OnServer, "server", "on this server"},
		{node.Offline, "offline", "offline"},
		{node.OnServer | node.Offline, "server, offline", "here"},
		{0, "", "here"},
	} {
		if tc.p.Name() != tc.name || tc.p.Where() != tc.where {
			t.Errorf("%d: Name %q Where %q, want %q %q", tc.p, tc.p.Name(), tc.p.Where(), tc.name, tc.where)
		}
	}
	if (node.OnServer | node.Offline).Has(node.Place(0)) || !(node.OnServer | node.Offline).Has(node.Offline) || node.OnServer.Has(node.Offline) {
		t.Error("Has")
	}
}
