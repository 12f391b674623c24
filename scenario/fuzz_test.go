package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes the parser panic or hang, and whatever it
// accepts is a runnable scenario: a graph or workflow, one turn or more,
// each message matcher saying what it checks.
func FuzzParse(f *testing.F) {
	f.Add("s.yaml", shippingYAML)
	f.Add("s.json", shippingJSON)
	f.Add("s.yaml", "graph: g\nturns: [{message: &a hi, identity: *a}]\n")
	f.Add("s.yaml", "graph: g\nmocks: {a: {mockResponse: {b: [1, 2.5, .inf]}}}\nturns: [{}]\n")
	f.Add("s.yaml", "a: &x [*x]\n")
	if files, _ := filepath.Glob("../examples/scenarios/*.scenario.yaml"); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add("s.yaml", string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, name, src string) {
		s, err := Parse(name, []byte(src))
		if err != nil {
			return
		}
		if (s.Graph == "") == (s.Workflow == "") || len(s.Turns) == 0 || len(s.Turns) > MaxTurns {
			t.Fatalf("accepted %+v", s)
		}
		for _, turn := range s.Turns {
			for _, m := range turn.Expect.Messages {
				_ = m.String()
			}
			Judge(turn.Expect, Observed{})
		}
	})
}
