package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node/awaitreply"
	"github.com/wetel/wetel/vocab"
)

func askGraph(askCfg string) string {
	return gdoc([]string{nd("s", "start", `{}`),
		nd("build", "set_variable", `{"assignments":[{"var":"roles","value":[{"id":"1","label":"Solution Architect"},{"id":"2","label":"Software Engineer"}]}]}`),
		nd("ask", "await_reply", askCfg), say("after", "never in this run"), say("yes", "chose {{chosen.label}}"), say("no", "unmatched {{chosen}}")},
		[]string{ed("e1", "s", "build", ""), ed("e2", "build", "ask", ""), ed("e3", "build", "after", ""), ed("e4", "ask", "yes", "answered"), ed("e5", "ask", "no", "unanswered")})
}

const optionsAsk = `{"promptTemplate":"Which role?\n{{#each awaitReplyOptions}}{{slot}}. {{label}}\n{{/each}}","saveAs":"chosen","matchMode":"options","optionsFrom":"roles","mood":"helpful"}`

// The question ends the turn: the run pauses AWAITING_INPUT, the question is
// published with turnComplete true, and nothing queued behind it runs.
func TestAwaitReplyPauses(t *testing.T) {
	t.Parallel()
	h := newHarness()
	res := h.run(t, askGraph(optionsAsk), engine.Input{Vars: map[string]any{"userMessage": "hi", "sessionId": int64(4), "mine": "kept"}})
	if res.Status != vocab.RunAwaitingInput || res.PausedAt != "ask" || path(res) != "s:COMPLETED build:COMPLETED ask:COMPLETED" {
		t.Fatalf("status %s at %q: %s (%s)", res.Status, res.PausedAt, path(res), res.Error)
	}
	if len(res.Messages) != 1 || res.Messages[0].Text != "Which role?\n1. Solution Architect\n2. Software Engineer\n" || !res.Messages[0].TurnComplete || res.Messages[0].Mood != "helpful" {
		t.Fatalf("question %+v", res.Messages)
	}
	p := res.Pause
	if p.Kind != awaitreply.Kind || p.ResumeOn != vocab.ResumeOnReply || p.RunStatus != vocab.RunAwaitingInput {
		t.Fatalf("pause kind %q, resumed on %q, run status %q", p.Kind, p.ResumeOn, p.RunStatus)
	}
	st, err := awaitreply.DecodeState(p.State)
	if err != nil || st.SaveAs != "chosen" || st.MatchMode != "options" || len(st.Options) != 2 || st.Options[1].Label != "Software Engineer" || st.Options[1].Slot != 2 {
		t.Fatalf("pause state %s: %+v, %v", p.State, st, err)
	}
	if !p.ExpiresAt.Equal(h.clock.Now().Add(24 * 60 * 60e9)) {
		t.Errorf("expires %v", p.ExpiresAt)
	}
	var snap map[string]any
	_ = json.Unmarshal(p.Snapshot, &snap)
	if snap["mine"] != "kept" || snap["roles"] == nil || snap["userMessage"] != nil || snap["sessionId"] != nil || snap["awaitReplyOptions"] != nil {
		t.Fatalf("snapshot %s", p.Snapshot)
	}
	if _, leaked := res.Vars["awaitReplyOptions"]; leaked {
		t.Error("awaitReplyOptions was written into the context")
	}
}

func TestAwaitReplyExpiryIsClamped(t *testing.T) {
	t.Parallel()
	h := newHarness()
	res := h.run(t, askGraph(`{"promptTemplate":"?","saveAs":"chosen","expiresAfterSeconds":99999999}`), engine.Input{})
	if !res.Pause.ExpiresAt.Equal(h.clock.Now().Add(7 * 24 * 60 * 60e9)) {
		t.Fatalf("expires %v", res.Pause.ExpiresAt)
	}
}

func TestAwaitReplyFailures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  string
		vars map[string]any
		want string
	}{
		{"optionsFrom missing", strings.Replace(optionsAsk, `"optionsFrom":"roles"`, `"optionsFrom":"nothing.here"`, 1), nil, "nothing.here"},
		{"snapshot over 256 KB", `{"promptTemplate":"?","saveAs":"chosen"}`, map[string]any{"big": strings.Repeat("x", 256<<10)},
			"AwaitReplySnapshotTooLargeError: the context to carry across the pause is"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := newHarness().run(t, askGraph(tc.cfg), engine.Input{Vars: tc.vars})
			if res.Status != vocab.RunFailed || !strings.Contains(res.Error, tc.want) || len(res.Messages) != 0 {
				t.Fatalf("status %s, error %q, messages %v", res.Status, res.Error, res.Messages)
			}
		})
	}
}

func TestAwaitReplyRefusedInSubAgentChild(t *testing.T) {
	t.Parallel()
	res := newHarness().run(t, askGraph(optionsAsk), engine.Input{Child: true})
	if res.Status != vocab.RunFailed || !strings.HasPrefix(res.Error, "await_reply cannot run inside a sub_agent dispatch") {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
}

// A resumed run enters at the successors and never re-runs the front half.
func TestResumeEntersAtSuccessor(t *testing.T) {
	t.Parallel()
	h := newHarness()
	p := h.compile(t, askGraph(optionsAsk))
	entry, err := p.ResumeTargets("await_reply", "ask", "answered")
	if err != nil || len(entry) != 1 || entry[0] != "yes" {
		t.Fatalf("entry %v, %v", entry, err)
	}
	res := h.run(t, askGraph(optionsAsk), engine.Input{Entry: entry, Vars: map[string]any{"chosen": map[string]any{"slot": 1, "id": "1", "label": "Solution Architect"}}})
	if path(res) != "yes:COMPLETED" || texts(res)[0] != "chose Solution Architect" {
		t.Fatalf("trace %s, messages %v", path(res), texts(res))
	}
	if _, err := p.ResumeTargets("await_reply", "ask", "maybe"); err == nil || err.Error() != `cannot resume await_reply node "ask": it has no outgoing edge labeled 'maybe'` {
		t.Errorf("err %v", err)
	}
	if _, err := p.ResumeTargets("await_reply", "gone", "answered"); err == nil || !strings.Contains(err.Error(), "no longer has that node") {
		t.Errorf("err %v", err)
	}
}
