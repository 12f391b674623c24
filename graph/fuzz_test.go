package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// FuzzDecodeAndCheck feeds arbitrary documents through the decoder, every
// check, and, when a graph is publishable, a mock run: no input may panic or
// hang, and a publishable graph must compile.
func FuzzDecodeAndCheck(f *testing.F) {
	for _, glob := range []string{"../examples/*.json", "../bench/workloads/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`{"nodes":[{"id":"s","type":"start"},{"id":"c","type":"condition","config":{"expression":"x > 1"}}],"edges":[{"id":"e","source":"s","target":"c"},{"id":"b","source":"c","target":"c","label":"true"}]}`))
	eng, err := engine.New(engine.Options{Limits: engine.Limits{MaxNodeExecutions: 50, MaxDuration: time.Second}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := graph.Decode(data)
		if err != nil {
			return
		}
		save := graph.CheckSave(g, node.Default)
		pub := graph.CheckPublish(g, node.Default)
		_ = graph.Diagnose(g, node.Default)
		if len(pub) < len(save) {
			t.Fatalf("publish found fewer problems (%d) than save (%d)", len(pub), len(save))
		}
		if len(pub) > 0 {
			return
		}
		plan, err := engine.Compile(g, node.Default)
		if err != nil {
			t.Fatalf("a publishable graph did not compile: %v", err)
		}
		res := eng.Run(context.Background(), plan, engine.Input{Mock: true, Vars: map[string]any{"userMessage": "hi", "x": 2.0}})
		if res.Status == vocab.RunRunning {
			t.Fatal("run left RUNNING")
		}
	})
}
