package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Each row shows what its own dispatch wrote, not the run's last value: a
// set_variable node in a loop shows 0, 1, 2 (the default stands in for the
// unset count), its refusal row nothing, and the run's vars the end.
func TestRunShowsEachDispatchsOutput(t *testing.T) {
	t.Parallel()
	graph := `{"nodes":[
	  {"id":"s","type":"start","config":{}},
	  {"id":"inc","type":"set_variable","config":{"maxVisits":3,"assignments":[
	    {"var":"count","expression":"count + 1","default":0},{"var":"label","value":"step {{count}}"}]}},
	  {"id":"more","type":"condition","config":{"expression":"count < 3","maxVisits":3}},
	  {"id":"say","type":"response","config":{"messageTemplate":"{{label}}"}}],
	 "edges":[{"id":"e1","source":"s","target":"inc"},{"id":"e2","source":"inc","target":"more"},
	  {"id":"e3","source":"more","target":"inc","label":"true"},{"id":"e4","source":"more","target":"say","label":"false"}]}`
	path := filepath.Join(t.TempDir(), "loop.json")
	if err := os.WriteFile(path, []byte(graph), 0o600); err != nil {
		t.Fatal(err)
	}
	d := decodeRun(t, wetel(t, "run", path, "--message", "go"))
	run := d.Turns[0].Runs[0]
	var got []any
	for _, row := range run.NodeTrace {
		out, has := row["output"].(map[string]any)
		switch row["nodeId"] {
		case "inc":
			if row["status"] != "COMPLETED" {
				if has {
					t.Errorf("a %s row shows %v", row["status"], out)
				}
				continue
			}
			got = append(got, out["count"], out["label"])
		case "s", "more", "say":
			if has {
				t.Errorf("%s wrote no output variable but shows %v", row["nodeId"], out)
			}
		}
	}
	want := []any{0.0, "step 0", 1.0, "step 1", 2.0, "step 2"}
	if len(got) != len(want) {
		t.Fatalf("outputs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("outputs %v, want %v", got, want)
		}
	}
	if run.Vars["count"] != 2.0 || run.Vars["label"] != "step 2" || run.Vars["userMessage"] != "go" {
		t.Fatalf("vars %v", run.Vars)
	}
}
