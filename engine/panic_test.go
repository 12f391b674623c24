package engine_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// explode is a named executor, so the stack shows its frame.
func explode(context.Context, *node.Exec) (node.Outcome, error) {
	panic("boom with s3cr3t-value")
}

// A panicking executor's stack reaches the engine's log, with the node, its
// type and the run; the trace row and the run's error keep the short
// message, and the secret in the panic value is redacted everywhere.
func TestPanicStackGoesToTheLogOnly(t *testing.T) {
	t.Parallel()
	h := newHarness()
	h.stub(t, "fragile", false, explode)
	var buf bytes.Buffer
	eng, err := engine.New(engine.Options{Clock: h.clock, Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	doc := gdoc([]string{nd("s", "start", `{}`), nd("f", "fragile", `{}`)}, []string{ed("e1", "s", "f", "")})
	res := eng.Run(context.Background(), h.compile(t, doc), engine.Input{RunID: 42, Mock: true, Secrets: []string{"s3cr3t-value"}})

	const frame = "engine_test.explode("
	logged := buf.String()
	for _, want := range []string{"level=ERROR", `msg="node panicked"`, "node=f", "type=fragile", "run=42", frame, "panic_test.go:"} {
		if !strings.Contains(logged, want) {
			t.Errorf("the log lacks %q:\n%s", want, logged)
		}
	}
	if strings.Contains(logged, "s3cr3t-value") {
		t.Errorf("the log holds the run's secret:\n%s", logged)
	}

	if res.Status != vocab.RunFailed || path(res) != "s:COMPLETED f:FAILED" {
		t.Fatalf("status %s: %s", res.Status, path(res))
	}
	const short = `fragile node "f" crashed: boom with`
	if !strings.HasPrefix(res.Error, short) || !strings.HasPrefix(res.NodeTrace[1].Error, short) {
		t.Errorf("run error %q, row error %q; want both to start %q", res.Error, res.NodeTrace[1].Error, short)
	}
	for _, row := range res.NodeTrace {
		for _, text := range []string{row.Error, res.Error} {
			if strings.Contains(text, frame) || strings.Contains(text, "goroutine") || strings.Contains(text, "s3cr3t-value") {
				t.Errorf("row %s or the run's error carries the stack or the secret: %q", row.NodeID, text)
			}
		}
	}
}
