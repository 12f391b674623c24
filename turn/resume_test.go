package turn_test

import (
	"context"
	"testing"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

const question = `{"nodes":[{"id":"s","type":"start"},
{"id":"keep","type":"set_variable","config":{"assignments":[{"var":"kept","value":"yes"}]}},
{"id":"ask","type":"await_reply","config":{"promptTemplate":"Which? {{#each awaitReplyOptions}}{{slot}}={{label}} {{/each}}","saveAs":"pick","matchMode":"options","optionsFrom":"items"}},
{"id":"got","type":"response","config":{"messageTemplate":"{{pick.label}} (kept {{kept}}, you said {{userMessage}})"}},
{"id":"none","type":"response","config":{"messageTemplate":"no match for {{pick}}"}},
{"id":"items","type":"set_variable","config":{"assignments":[{"var":"items","value":[{"id":"a","label":"Apple"},{"id":"b","label":"Pear"}]}]}}],
"edges":[{"id":"e1","source":"s","target":"keep"},{"id":"e2","source":"keep","target":"items"},{"id":"e3","source":"items","target":"ask"},
{"id":"e4","source":"ask","target":"got","label":"answered"},{"id":"e5","source":"ask","target":"none","label":"unanswered"}]}`

// Seed 000: the resumed run is "{ ...snapshot, ...freshTurnFacts, [saveAs]:
// answer }" and continues from the answered or unanswered edge; in memory
// as in a stored session.
func TestRunnerResume(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ reply, want string }{
		{"2", "Pear (kept yes, you said 2)"},
		{"banana", "no match for banana"},
	} {
		r := runner(t, question)
		s := &turn.Session{}
		first := r.Send(context.Background(), s, "hi")
		paused := first.Runs[0]
		if paused.Status != vocab.RunAwaitingInput || paused.Pause == nil || first.Messages[0].Text != "Which? 1=Apple 2=Pear " {
			t.Fatalf("turn 1: %s %+v", paused.Status, first.Messages)
		}
		res, err := r.Resume(context.Background(), s, node.Default, paused, tc.reply)
		if err != nil {
			t.Fatal(err)
		}
		if res.Runs[0].Status != vocab.RunCompleted || len(res.Messages) != 1 || res.Messages[0].Text != tc.want {
			t.Errorf("reply %q: %s %+v", tc.reply, res.Runs[0].Status, res.Messages)
		}
		if len(s.Transcript) != 4 {
			t.Errorf("transcript %+v", s.Transcript)
		}
	}
	r := runner(t, question)
	if _, err := r.Resume(context.Background(), &turn.Session{}, node.Default, r.Send(context.Background(), &turn.Session{}, "x").Runs[0], ""); err != nil {
		t.Errorf("an empty reply is unanswered, not an error: %v", err)
	}
	done := r.Send(context.Background(), &turn.Session{}, "x")
	done.Runs[0].Pause = nil
	if _, err := r.Resume(context.Background(), &turn.Session{}, node.Default, done.Runs[0], "1"); err == nil {
		t.Error("resuming a run that did not pause is not refused")
	}
}
