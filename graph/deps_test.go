package graph_test

import (
	"os/exec"
	"strings"
	"testing"
)

// graph is a pure checker: it and the node contract it reads must link no
// HTTP or MCP machinery (the call machinery lives in package callout, and
// the node types that use it are not graph's imports).
func TestGraphLinksNoCallMachinery(t *testing.T) {
	t.Parallel()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH")
	}
	out, err := exec.Command(gotool, "list", "-deps", "github.com/wetel/wetel/graph").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	forbidden := []string{
		"net/http",
		"github.com/modelcontextprotocol/go-sdk/",
		"github.com/wetel/wetel/callout",
		"github.com/wetel/wetel/outbound",
		"github.com/wetel/wetel/mcpclient",
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps listed nothing")
	}
	for _, dep := range deps {
		for _, f := range forbidden {
			if dep == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(dep, f)) {
				t.Errorf("graph depends on %s", dep)
			}
		}
	}
}
