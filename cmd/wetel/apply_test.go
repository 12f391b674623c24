package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/server"
)

// TestApplyIsIdempotent applies a workspace file to a real server twice:
// the first run creates what it declares and says so, the second changes
// nothing; a changed file updates only what changed.
func TestApplyIsIdempotent(t *testing.T) {
	// Not parallel: the file's ${APPLY_TEST_TOKEN} is read from the environment.
	const key = "wtl_apply_test_key_0123456789abc"
	url := serveForTest(t, key)

	dir := t.TempDir()
	graph, err := os.ReadFile(filepath.Join("..", "..", "examples", "shipping-await-reply.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shipping.json"), graph, 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "workspace.yaml")
	write := func(persona string) {
		doc := `customActions:
  - {id: 42, name: find-orders, method: POST, url: "https://orders.example.com/find", headers: {Authorization: "Bearer ${APPLY_TEST_TOKEN}"}}
  - {id: 43, name: order-status, url: "https://orders.example.com/status"}
workflows:
  - {name: shipping, file: shipping.json, publish: true}
agents:
  - {name: shipping, persona: "` + persona + `", workflow: shipping}
`
		if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("APPLY_TEST_TOKEN", "s3cr3t-token-value")
	apply := func() string {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{"apply", file, "--server", url, "--key", key}, nil, &out, &errOut); code != 0 {
			t.Fatalf("apply exited %d: %s", code, errOut.String())
		}
		return out.String()
	}
	write("You track parcels.")
	first := apply()
	for _, want := range []string{`custom action 42 "find-orders": created`, `custom action 43 "order-status": created`,
		`workflow "shipping": created`, `workflow "shipping": published version 1`, `agent "shipping": created`} {
		if !strings.Contains(first, want) {
			t.Errorf("first apply did not say %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "s3cr3t") {
		t.Errorf("apply printed the secret:\n%s", first)
	}
	if second := apply(); strings.TrimSpace(second) != "no changes" {
		t.Errorf("second apply:\n%s", second)
	}
	write("You track parcels, kindly.")
	if third := apply(); strings.TrimSpace(third) != `agent "shipping": updated` {
		t.Errorf("apply after a persona change:\n%s", third)
	}
}

// TestChatWithServer converses with the demo agent of a real server from
// the terminal client: the question with its numbered options, then the
// answer to "2", each printed as its event arrives.
func TestChatWithServer(t *testing.T) {
	t.Parallel()
	const key = "wtl_chat_test_key_0123456789abcd"
	url := serveForTest(t, key)
	var out, errOut bytes.Buffer
	in := strings.NewReader("hello\n2\n\n")
	if code := run(context.Background(), []string{"chat", "--server", url, "--key", key}, in, &out, &errOut); code != 0 {
		t.Fatalf("chat exited %d: %s", code, errOut.String())
	}
	got := out.String()
	q := strings.Index(got, "Hi! What can I help you with?\n1. Track an order\n2. Return an item\n3. Talk to a person\n")
	a := strings.Index(got, "You chose Return an item.")
	if q < 0 || a < q {
		t.Fatalf("chat printed:\n%s", got)
	}
}

// serveForTest starts a server on a loopback port for the test's length.
func serveForTest(t *testing.T, key string) string {
	t.Helper()
	return serveForTestWith(t, server.Config{BootstrapKey: key})
}

// serveForTestWith is serveForTest with the server's configuration.
func serveForTestWith(t *testing.T, cfg server.Config) string {
	t.Helper()
	cfg.DataDir = t.TempDir()
	srv, err := server.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String()
}

// wetel chat with an agent that cannot run says so, at the start and on
// each message, instead of printing nothing.
func TestChatWithAgentThatIsNotReady(t *testing.T) {
	t.Parallel()
	const key = "wtl_chat_notready_key_0123456789"
	url := serveForTest(t, key)
	c := client.New(url, key)
	var out struct{ CreateAgent struct{ ID int64 } }
	if err := c.Do(context.Background(), `mutation { createAgent(input: {name: "Bare"}) { id } }`, nil, &out); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	in := strings.NewReader("hello\n\n")
	args := []string{"chat", "--server", url, "--key", key, "--agent", strconv.FormatInt(out.CreateAgent.ID, 10)}
	if code := run(context.Background(), args, in, &stdout, &stderr); code != 0 {
		t.Fatalf("chat exited %d: %s", code, stderr.String())
	}
	got := stdout.String()
	notice := fmt.Sprintf("Notice: agent %d will not answer: agent %d has no workflow attached", out.CreateAgent.ID, out.CreateAgent.ID)
	if !strings.Contains(got, notice) || !strings.Contains(got, "(no reply: agent ") {
		t.Fatalf("chat printed:\n%s", got)
	}
}
