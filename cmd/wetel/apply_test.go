package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wetel/wetel/server"
)

// TestApplyIsIdempotent applies a workspace file to a real server twice:
// the first run creates what it declares and says so, the second changes
// nothing; a changed file updates only what changed.
func TestApplyIsIdempotent(t *testing.T) {
	// Not parallel: the file's ${APPLY_TEST_TOKEN} is read from the environment.
	const key = "wtl_apply_test_key_0123456789abc"
	srv, err := server.New(context.Background(), server.Config{DataDir: t.TempDir(), BootstrapKey: key})
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
	defer func() { cancel(); <-done }()
	url := "http://" + ln.Addr().String()

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
