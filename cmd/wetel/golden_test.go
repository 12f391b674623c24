package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// timestamps are the only part of a run's output that changes between
// runs of the same graph.
var timestamps = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"`)

// checkGolden compares got with testdata/NAME.golden, or rewrites the file
// under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	got = timestamps.ReplaceAllString(got, `"<time>"`)
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/wetel -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test ./cmd/wetel -update rewrites it after a deliberate change)\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

// What `wetel run` prints for the README's steps: the variables after each
// run and each node's output, so "read _lastNodeErrorCode" and "turn 2
// starts with chosenOrder = …" can be followed; and the exit code.
func TestRunOutputGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"run/shipping-answered", []string{"run", shipping, "--mock", "--message", "where are my orders?", "--message", "2"}, 0},
		{"run/bounded-retry-timeout", []string{"run", "../../examples/bounded-retry.json", "--mock", "--mock-error", "n_submit=TIMEOUT:slow", "--message", "please file my claim"}, 0},
		{"run/order-status-general", []string{"run", "../../examples/order-status.json", "--mock", "--mock-response", `classify="general"`, "--message", "hi"}, 0},
		{"run/failed", []string{"run", "../../examples/order-status.json", "--message", "hi"}, exitRunFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := wetel(t, tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d: %s", r.code, tc.code, r.stderr)
			}
			checkGolden(t, tc.name, r.stdout)
		})
	}
}

// Every command answers -h, and `wetel help COMMAND` prints the same: its
// arguments, its flags and an example.
func TestHelpGolden(t *testing.T) {
	// Not parallel: flag defaults read the environment.
	for _, name := range []string{"WETEL_ADDR", "WETEL_DATA_DIR", "WETEL_LOG_FORMAT", "WETEL_OUTBOUND_ALLOW", "WETEL_SERVER", "WETEL_API_KEY", "WETEL_DATABASE_URL"} {
		t.Setenv(name, "")
	}
	overview := wetel(t, "help")
	if overview.code != 0 {
		t.Fatalf("wetel help: exit %d: %s", overview.code, overview.stderr)
	}
	checkGolden(t, "help/overview", overview.stdout)
	if r := wetel(t, "--help"); r.code != 0 || r.stdout != overview.stdout {
		t.Errorf("wetel --help: exit %d, or not the overview:\n%s", r.code, r.stdout)
	}
	for _, c := range commands {
		help := wetel(t, "help", c.name)
		if help.code != 0 {
			t.Fatalf("wetel help %s: exit %d: %s", c.name, help.code, help.stderr)
		}
		if !strings.Contains(help.stdout, "\nExamples:\n  wetel ") {
			t.Errorf("wetel help %s shows no example:\n%s", c.name, help.stdout)
		}
		checkGolden(t, "help/"+c.name, help.stdout)
		if dash := wetel(t, c.name, "-h"); dash.code != 0 || dash.stdout != help.stdout {
			t.Errorf("wetel %s -h: exit %d, or not what wetel help %s prints:\n%s", c.name, dash.code, c.name, dash.stdout)
		}
	}
	if r := wetel(t, "help", "frobnicate"); r.code != 2 || !strings.Contains(r.stderr, `unknown command "frobnicate"`) {
		t.Errorf("help for an unknown command: exit %d: %s", r.code, r.stderr)
	}
}
