package turn_test

import (
	"context"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/turn"
)

func runner(t *testing.T, src string) *turn.Runner {
	t.Helper()
	g, err := graph.Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile(g, node.Default)
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := engine.New(engine.Options{})
	return &turn.Runner{Engine: eng, Plan: p, Mock: true}
}

const echo = `{"nodes":[{"id":"s","type":"start"},{"id":"a","type":"response","config":{"messageTemplate":"first {{userMessage}}","mood":"calm"}},
{"id":"b","type":"response","config":{"messageTemplate":"{{#if carried}}carried{{else}}fresh{{/if}} {{sessionId}}/{{turnIndex}}"}},
{"id":"c","type":"set_variable","config":{"assignments":[{"var":"carried","value":true}]}}],
"edges":[{"id":"e1","source":"s","target":"a"},{"id":"e2","source":"a","target":"b"},{"id":"e3","source":"b","target":"c"}]}`

// Every turn is a fresh run seeded only with turn facts: a variable written
// in turn 1 is gone in turn 2, and the last message of a turn completes it.
func TestTurnsAreFreshRuns(t *testing.T) {
	t.Parallel()
	r := runner(t, echo)
	s := &turn.Session{}
	s.ID = 7
	for i, msg := range []string{"hi", "again"} {
		res := r.Send(context.Background(), s, msg)
		if len(res.Messages) != 2 || res.Messages[0].Text != "first "+msg || res.Messages[0].Mood != "calm" || res.Messages[0].TurnComplete {
			t.Fatalf("turn %d messages %+v", i, res.Messages)
		}
		want := "fresh 7/" + string(rune('0'+i))
		if res.Messages[1].Text != want || !res.Messages[1].TurnComplete {
			t.Fatalf("turn %d last message %+v, want %q", i, res.Messages[1], want)
		}
		if res.Runs[0].RunID != int64(i+1) {
			t.Errorf("run id %d", res.Runs[0].RunID)
		}
	}
	if len(s.Transcript) != 6 || s.Transcript[3].Text != "again" || s.Transcript[5].Role != "assistant" {
		t.Fatalf("transcript %+v", s.Transcript)
	}
}

func TestFailureReply(t *testing.T) {
	t.Parallel()
	bad := `{"nodes":[{"id":"s","type":"start"},{"id":"l","type":"llm","config":{"promptTemplate":"x","outputVar":"o","mockError":{"code":"TIMEOUT"}}}],
"edges":[{"id":"e1","source":"s","target":"l"}]}`
	r := runner(t, bad)
	res := r.Send(context.Background(), &turn.Session{}, "hi")
	if len(res.Messages) != 1 || res.Messages[0].Text != "Sorry, I ran into a problem" || !res.Messages[0].TurnComplete {
		t.Fatalf("messages %+v", res.Messages)
	}
	r.FailureResponse = "Our systems are down; a colleague will call you."
	res = r.Send(context.Background(), &turn.Session{}, "hi")
	if res.Messages[0].Text != r.FailureResponse {
		t.Fatalf("messages %+v", res.Messages)
	}
}
