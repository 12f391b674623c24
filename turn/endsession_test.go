package turn_test

import (
	"context"
	"errors"
	"testing"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

const confirmEnd = `{"nodes":[{"id":"start","type":"start"},
{"id":"bye","type":"end_session","config":{"requireConfirmation":true,"confirmationTemplate":"End this chat?"}},
{"id":"stay","type":"response","config":{"messageTemplate":"Staying: {{userMessage}}"}}],
"edges":[{"id":"e1","source":"start","target":"bye"},{"id":"e2","source":"bye","target":"stay","label":"declined"}]}`

// end_session with requireConfirmation asks, pauses like await_reply, and
// ends the session on a yes; anything else takes its 'declined' edge.
func TestEndSessionConfirmation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, confirmEnd)
	ctx := context.Background()
	s := f.session(t)
	first := f.send(t, s, "I'm done")
	if r := first.Runs[0]; r.Status != vocab.RunAwaitingInput || len(first.Messages) != 1 || first.Messages[0].Text != "End this chat?" || !first.Messages[0].TurnComplete {
		t.Fatalf("turn 1: %+v, %+v", r, first.Messages)
	}
	declined := f.send(t, s, "no, wait")
	if r := declined.Runs[0]; r.Status != vocab.RunCompleted || r.ResumedFromRunID != first.Runs[0].ID || declined.Messages[0].Text != "Staying: no, wait" {
		t.Fatalf("declined: %+v, %+v", r, declined.Messages)
	}
	f.send(t, s, "bye now")
	yes := f.send(t, s, "Yes!")
	if r := yes.Runs[0]; r.Status != vocab.RunCompleted || r.ResumedFromRunID == 0 || len(yes.Messages) != 0 {
		t.Fatalf("confirmed: %+v, %+v", r, yes.Messages)
	}
	if got, err := f.st.Session(ctx, f.ws, s.ID); err != nil || got.Status != store.SessionEnded {
		t.Fatalf("after yes the session is %+v, %v", got, err)
	}
	if _, err := f.svc.Send(ctx, f.ws, s.ID, "hello?"); !errors.Is(err, turn.ErrSessionEnded) {
		t.Errorf("a message after the end: %v", err)
	}
}

// Without a 'declined' edge, a reply that is not a yes ends the turn with
// the session open, and the next message starts afresh.
func TestEndSessionDeclinedWithoutAnEdge(t *testing.T) {
	t.Parallel()
	f := newFixture(t, `{"nodes":[{"id":"start","type":"start"},
{"id":"bye","type":"end_session","config":{"requireConfirmation":true}}],
"edges":[{"id":"e1","source":"start","target":"bye"}]}`)
	s := f.session(t)
	first := f.send(t, s, "stop")
	if first.Messages[0].Text != "Shall I end this conversation? Reply yes to end it." {
		t.Fatalf("the default question: %q", first.Messages[0].Text)
	}
	no := f.send(t, s, "actually no")
	if r := no.Runs[0]; r.Status != vocab.RunCompleted || len(no.Messages) != 0 {
		t.Fatalf("declined: %+v, %+v", r, no.Messages)
	}
	again := f.send(t, s, "stop")
	if r := again.Runs[0]; r.ResumedFromRunID != 0 || r.Status != vocab.RunAwaitingInput {
		t.Fatalf("the next message should start afresh and ask again: %+v", r)
	}
}
