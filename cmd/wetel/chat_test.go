package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// wetel chat answers a question on the next line typed, in process.
func TestChatConverses(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	in := strings.NewReader("where are my orders?\nCast iron skillet\n\n")
	code := run(context.Background(), []string{"chat", "--graph", shipping, "--mock"}, in, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	text := out.String()
	for _, want := range []string{"1. Walnut desk lamp\n2. Linen duvet cover, queen\n3. Cast iron skillet\n", "Cast iron skillet is currently in transit, expected Thursday."} {
		if !strings.Contains(text, want) {
			t.Errorf("chat output lacks %q:\n%s", want, text)
		}
	}
}
