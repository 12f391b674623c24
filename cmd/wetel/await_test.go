package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const shipping = "../../examples/shipping-await-reply.json"

// Seed 000's worked example end to end: turn 1 asks with the rendered list
// and pauses; turn 2 "2" resumes at fetch_status with chosenOrder set, and
// find_orders is not run again.
func TestRunShippingExampleAnswered(t *testing.T) {
	t.Parallel()
	d := decodeRun(t, wetel(t, "run", shipping, "--mock", "--message", "where are my orders?", "--message", "2"))
	if len(d.Turns) != 2 {
		t.Fatalf("turns %+v", d.Turns)
	}
	t1, t2 := d.Turns[0], d.Turns[1]
	if t1.Runs[0].Status != "AWAITING_INPUT" || trace(t1.Runs[0].NodeTrace) != "start:COMPLETED find_orders:COMPLETED ask_which_order:COMPLETED" {
		t.Fatalf("turn 1 run %s: %s", t1.Runs[0].Status, trace(t1.Runs[0].NodeTrace))
	}
	// Handlebars drops a standalone {{/each}} line with its newline, as
	// Handlebars.js does, so no blank line follows the list.
	question := "I found a few open orders on your account:\n\n1. Walnut desk lamp\n2. Linen duvet cover, queen\n3. Cast iron skillet\nWhich one would you like an update on? Reply with the number."
	if len(t1.Messages) != 1 || t1.Messages[0].Text != question || !t1.Messages[0].TurnComplete || t1.Messages[0].Mood != "helpful" {
		t.Fatalf("turn 1 messages %+v", t1.Messages)
	}
	run2 := t2.Runs[0]
	if run2.ResumedFromRunID == nil || *run2.ResumedFromRunID != t1.Runs[0].ID || run2.Status != "COMPLETED" {
		t.Fatalf("turn 2 run %+v", run2)
	}
	if got := trace(run2.NodeTrace); got != "fetch_status:COMPLETED report_status:COMPLETED" {
		t.Fatalf("turn 2 trace %s (find_orders must not run again)", got)
	}
	if len(t2.Messages) != 1 || t2.Messages[0].Text != "Linen duvet cover, queen is currently in transit, expected Thursday." {
		t.Fatalf("turn 2 messages %+v", t2.Messages)
	}
}

// A reply that is not a slot pick takes the unanswered edge.
func TestRunShippingExampleUnanswered(t *testing.T) {
	t.Parallel()
	d := decodeRun(t, wetel(t, "run", shipping, "--mock", "--message", "hello", "--message", "I'll take 2 of them"))
	t2 := d.Turns[1]
	if t2.Runs[0].Status != "COMPLETED" || trace(t2.Runs[0].NodeTrace) != "reask:COMPLETED" {
		t.Fatalf("turn 2 %s: %s", t2.Runs[0].Status, trace(t2.Runs[0].NodeTrace))
	}
	if t2.Messages[0].Text != "Sorry — I couldn't tell which order you meant. Could you reply with just the number from the list?" {
		t.Fatalf("messages %+v", t2.Messages)
	}
}

// An identity change between the question and the reply cancels the wait:
// the reply starts a fresh run.
func TestRunIdentityChangeCancelsWait(t *testing.T) {
	t.Parallel()
	d := decodeRun(t, wetel(t, "run", shipping, "--mock", "--message", "hello", "--identity", "ann@example.com", "--message", "2"))
	t2 := d.Turns[1]
	if t2.Runs[0].ResumedFromRunID != nil || !strings.HasPrefix(trace(t2.Runs[0].NodeTrace), "start:COMPLETED find_orders:COMPLETED") {
		t.Fatalf("turn 2 resumed instead of starting fresh: %s", trace(t2.Runs[0].NodeTrace))
	}
}

// --db keeps the conversation between invocations: a question asked by one
// is answered by the next.
func TestRunDBKeepsTheSession(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "w.db")
	first := decodeRun(t, wetel(t, "run", shipping, "--mock", "--db", db, "--message", "hi"))
	if first.Turns[0].Runs[0].Status != "AWAITING_INPUT" {
		t.Fatalf("first %+v", first.Turns[0].Runs[0])
	}
	second := decodeRun(t, wetel(t, "run", shipping, "--mock", "--db", db, "--session", strconv.FormatInt(first.SessionID, 10), "--message", "Cast iron skillet"))
	if second.Turns[0].Messages[0].Text != "Cast iron skillet is currently in transit, expected Thursday." {
		t.Fatalf("second %+v", second.Turns[0])
	}
}
