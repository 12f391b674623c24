package tool_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
)

func nd(id, typ, cfg string) string {
	return fmt.Sprintf(`{"id":%q,"type":%q,"label":%q,"config":%s}`, id, typ, id, cfg)
}

// callGraph is start → call → ok (success) / sorry (failure).
func callGraph(call string) string {
	return `{"nodes":[` + nd("s", "start", `{}`) + "," + call + "," +
		nd("ok", "response", `{"messageTemplate":"ok"}`) + "," + nd("sorry", "response", `{"messageTemplate":"{{_lastNodeErrorCode}}"}`) +
		`],"edges":[{"id":"e1","source":"s","target":"call"},{"id":"e2","source":"call","target":"ok","label":"success"},` +
		`{"id":"e3","source":"call","target":"sorry","label":"failure"}]}`
}

func runGraph(t *testing.T, doc string, in engine.Input) *engine.Result {
	t.Helper()
	g, err := graph.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile(g, node.Default)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := engine.New(engine.Options{})
	return eng.Run(context.Background(), p, in)
}

func callRow(t *testing.T, res *engine.Result) engine.TraceRow {
	t.Helper()
	for _, r := range res.NodeTrace {
		if r.NodeID == "call" {
			return r
		}
	}
	t.Fatalf("no row for node call")
	return engine.TraceRow{}
}
