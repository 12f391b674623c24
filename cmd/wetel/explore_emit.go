package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wetel/wetel/graph"
)

// emitScenarios writes, greedily, the paths that each take a labelled edge
// no path written before took, until every labelled edge some path took
// is covered; each becomes a scenario expecting what the path did.
func emitScenarios(g *graph.Graph, graphFile, dir string, paths []*exploredPath) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	labelled := map[string]bool{}
	for _, e := range g.Edges {
		if e.Label != "" {
			labelled[e.ID] = true
		}
	}
	covers := make([]map[string]bool, len(paths))
	for i, p := range paths {
		covers[i] = map[string]bool{}
		for id := range edgesTaken(g, p) {
			if labelled[id] {
				covers[i][id] = true
			}
		}
	}
	covered := map[string]bool{}
	var chosen []int
	for {
		best, gain := -1, 0
		for i := range paths {
			n := 0
			for id := range covers[i] {
				if !covered[id] {
					n++
				}
			}
			if n > gain {
				best, gain = i, n
			}
		}
		if best < 0 {
			break
		}
		chosen = append(chosen, best)
		for id := range covers[best] {
			covered[id] = true
		}
	}
	if len(chosen) == 0 && len(paths) > 0 {
		chosen = []int{0} // a graph with no labelled edges still gets its one path
	}
	sort.Ints(chosen)
	absGraph, err := filepath.Abs(graphFile)
	if err != nil {
		return 0, err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return 0, err
	}
	rel, err := filepath.Rel(absDir, absGraph)
	if err != nil {
		rel = absGraph
	}
	base := strings.TrimSuffix(filepath.Base(graphFile), filepath.Ext(graphFile))
	for n, i := range chosen {
		var b bytes.Buffer
		b.WriteString("# Written by wetel run --explore: what this path did when it was explored.\n")
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(emitted(paths[i], rel, fmt.Sprintf("%s, explored path %d", base, n+1))); err != nil {
			return n, err
		}
		name := filepath.Join(dir, fmt.Sprintf("%s-path-%02d.scenario.yaml", base, n+1))
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			return n, err
		}
	}
	return len(chosen), nil
}

type emittedFile struct {
	Name  string                    `yaml:"name"`
	Graph string                    `yaml:"graph"`
	Mocks map[string]map[string]any `yaml:"mocks,omitempty"`
	Turns []emittedTurn             `yaml:"turns"`
}

type emittedTurn struct {
	Message string        `yaml:"message"`
	Expect  emittedExpect `yaml:"expect"`
}

type emittedExpect struct {
	Status   string   `yaml:"status"`
	Path     []string `yaml:"path,flow"`
	Messages []string `yaml:"messages"`
}

func emitted(p *exploredPath, graphRel, name string) emittedFile {
	f := emittedFile{Name: name, Graph: filepath.ToSlash(graphRel)}
	for _, o := range p.mocks {
		if f.Mocks == nil {
			f.Mocks = map[string]map[string]any{}
		}
		var v any
		_ = yaml.Unmarshal(o.value, &v) // JSON is YAML
		f.Mocks[o.nodeID] = map[string]any{o.field: v}
	}
	for _, t := range p.turns {
		e := emittedExpect{Path: []string{}, Messages: append([]string{}, t.messages...)}
		for _, r := range t.runs {
			e.Status = r.status
			for _, row := range r.rows {
				e.Path = append(e.Path, row.NodeID)
			}
		}
		f.Turns = append(f.Turns, emittedTurn{Message: t.message, Expect: e})
	}
	return f
}
