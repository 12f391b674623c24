package graph

import (
	"reflect"
	"testing"
)

func TestCompare(t *testing.T) {
	t.Parallel()
	from := mustDecode(t, `{"nodes":[
		{"id":"start","type":"start"},
		{"id":"a","type":"response","config":{"messageTemplate":"hi","mood":"calm"}},
		{"id":"b","type":"response","config":{"messageTemplate":"bye"}},
		{"id":"c","type":"response","label":"C","config":{"messageTemplate":"c"},"position":{"x":1,"y":2}}],
		"edges":[{"id":"e1","source":"start","target":"a"},{"id":"e2","source":"a","target":"b"},{"id":"e3","source":"a","target":"c"}]}`)
	to := mustDecode(t, `{"nodes":[
		{"id":"start","type":"start","config":{}},
		{"id":"a","type":"response","config":{"mood":"calm","messageTemplate":"hi"}},
		{"id":"c","type":"response","label":"C","config":{"messageTemplate":"c"},"position":{"x":1,"y":3}},
		{"id":"d","type":"response","config":{"messageTemplate":"new"}}],
		"edges":[{"id":"e1","source":"start","target":"a"},{"id":"e3","source":"a","target":"d"},{"id":"e4","source":"a","target":"c"}]}`)
	got := Compare(from, to)
	want := Diff{
		NodesAdded: []string{"d"}, NodesRemoved: []string{"b"}, NodesChanged: []string{"c"},
		EdgesAdded: []string{"e4"}, EdgesRemoved: []string{"e2"}, EdgesChanged: []string{"e3"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Compare = %+v, want %+v", got, want)
	}
	same := Compare(from, from)
	if len(same.NodesAdded)+len(same.NodesRemoved)+len(same.NodesChanged)+len(same.EdgesAdded)+len(same.EdgesRemoved)+len(same.EdgesChanged) != 0 {
		t.Errorf("a graph differs from itself: %+v", same)
	}
}

func mustDecode(t *testing.T, doc string) *Graph {
	t.Helper()
	g, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
