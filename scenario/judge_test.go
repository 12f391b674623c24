package scenario

import (
	"regexp"
	"strings"
	"testing"
)

func observedTurn() Observed {
	return Observed{
		Runs: []Run{{Status: "COMPLETED", Trace: []TraceRow{
			{NodeID: "start", Status: "COMPLETED"},
			{NodeID: "submit", Status: "FAILED_HANDLED", ErrorClass: "TIMEOUT"},
			{NodeID: "note", Status: "COMPLETED"},
			{NodeID: "submit", Status: "COMPLETED"},
			{NodeID: "confirm", Status: "COMPLETED"},
		}, Vars: map[string]any{"result": map[string]any{"ref": "CLM-1", "status": 201.0}, "tags": []any{"a", "b"}}}},
		Messages: []Message{{Text: "trying again", Mood: "neutral"}, {Text: "Done: CLM-1", Mood: "helpful"}},
	}
}

func text(s string) *string { return &s }

// Each kind of expectation passes on what happened and fails, with a
// readable reason, on anything else.
func TestJudge(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		expect Expect
		want   string // "" passes; else a substring of the one problem
	}{
		{"status", Expect{Status: "COMPLETED"}, ""},
		{"status differs", Expect{Status: "FAILED"}, "status: expected FAILED, got COMPLETED"},
		{"path", Expect{HasPath: true, Path: []string{"start", "submit", "note", "submit", "confirm"}}, ""},
		{"path parts", Expect{HasPath: true, Path: []string{"start", "submit", "confirm"}}, "the paths part after submit (step 3): expected confirm, got note"},
		{"path stops early", Expect{HasPath: true, Path: []string{"start", "submit", "note", "submit", "confirm", "end"}}, "the run stopped after confirm; expected end next"},
		{"path goes on", Expect{HasPath: true, Path: []string{"start"}}, "the run went on after start to submit; expected it to stop"},
		{"empty path", Expect{HasPath: true, Path: []string{}}, "the run went on at the start to start"},
		{"messages", Expect{HasMessages: true, Messages: []TextMatch{{Exact: text("trying again")}, {Contains: "CLM-1", Mood: "helpful"}}}, ""},
		{"regexp", Expect{HasMessages: true, Messages: []TextMatch{{Matches: regexp.MustCompile("^trying")}, {Matches: regexp.MustCompile(`CLM-\d$`)}}}, ""},
		{"exact differs", Expect{HasMessages: true, Messages: []TextMatch{{Exact: text("trying once more")}, {}}}, `from character 8 (expected "once more", got "again")`},
		{"mood differs", Expect{HasMessages: true, Messages: []TextMatch{{}, {Mood: "apologetic"}}}, `but the mood is "helpful"`},
		{"too few said", Expect{HasMessages: true, Messages: []TextMatch{{}, {}, {Contains: "bye"}}}, "message 3: expected text containing \"bye\", but the turn said only 2"},
		{"too many said", Expect{HasMessages: true, Messages: []TextMatch{{}}}, "message 2: not expected, the turn said \"Done: CLM-1\""},
		{"no messages", Expect{HasMessages: true}, "message 1: not expected"},
		{"vars subset", Expect{Vars: map[string]any{"result": map[string]any{"ref": "CLM-1"}, "tags": []any{"a", "b"}}}, ""},
		{"vars number", Expect{Vars: map[string]any{"result": map[string]any{"status": 201.0}}}, ""},
		{"vars differ", Expect{Vars: map[string]any{"result": map[string]any{"ref": "CLM-2"}}}, `result.ref: expected "CLM-2", got "CLM-1"`},
		{"vars missing", Expect{Vars: map[string]any{"other": 1.0}}, "other: expected 1, but the run has no such variable"},
		{"vars member missing", Expect{Vars: map[string]any{"result": map[string]any{"id": "x"}}}, "result.id: expected \"x\", but it is missing"},
		{"vars array length", Expect{Vars: map[string]any{"tags": []any{"a"}}}, `tags: expected ["a"], got ["a","b"]`},
		{"vars kind", Expect{Vars: map[string]any{"tags": map[string]any{}}}, "tags: expected an object containing {}, got"},
		{"trace", Expect{Trace: []TraceMatch{{Node: "submit", ErrorClass: "TIMEOUT"}, {Node: "submit", Status: "COMPLETED"}}}, ""},
		{"trace order", Expect{Trace: []TraceMatch{{Node: "submit", Status: "COMPLETED"}, {Node: "submit", Status: "FAILED_HANDLED"}}}, "trace: no row of node submit with status FAILED_HANDLED"},
		{"session", Expect{SessionEnded: new(bool)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Judge(tc.expect, observedTurn())
			switch {
			case tc.want == "" && len(got) > 0:
				t.Fatalf("want a pass, got %q", got)
			case tc.want != "" && (len(got) == 0 || !strings.Contains(got[0], tc.want)):
				t.Fatalf("want a first problem containing %q, got %q", tc.want, got)
			}
		})
	}
}

// The path report shows both paths in full.
func TestPathReport(t *testing.T) {
	t.Parallel()
	got := comparePath([]string{"a", "b", "c"}, []string{"a", "x"})
	want := "path: the paths part after a (step 2): expected b, got x\n  expected: a → b → c\n  actual:   a → x"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
