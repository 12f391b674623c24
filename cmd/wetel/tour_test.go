package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/server"
)

// envAsCLI makes the test binary act as the wetel command, so the tour's
// shell runs this very build as `wetel` without compiling it again.
const envAsCLI = "WETEL_TEST_AS_CLI"

func TestMain(m *testing.M) {
	// The developer's own model settings must not reach the tests.
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "WETEL_DEFAULT_MODEL"} {
		os.Unsetenv(k)
	}
	if os.Getenv(envAsCLI) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// The README's documented address and command, replaced by the test
// server's and this test binary's.
const (
	readmeURL = "http://127.0.0.1:8080"
	readmeCLI = "go run ./cmd/wetel"
)

// block is one fenced block of the README.
type block struct {
	info string // what follows the opening fence: "sh tour", "text tour-output"
	line int    // the line of the opening fence
	body string
}

// fencedBlocks reads every fenced block of a Markdown document.
func fencedBlocks(t *testing.T, doc string) []block {
	t.Helper()
	var out []block
	var cur *block
	var body []string
	for i, l := range strings.Split(doc, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &block{info: strings.TrimSpace(strings.TrimPrefix(l, "```")), line: i + 1}
			body = nil
		case cur != nil && strings.TrimSpace(l) == "```":
			cur.body = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body = append(body, l)
		}
	}
	if cur != nil {
		t.Fatalf("README line %d: a fenced block is never closed", cur.line)
	}
	return out
}

// matches reports whether got is what want documents. A line of want that
// is only "…" stands for any number of lines, and "…" within a line for any
// text; everything else is compared exactly. Trailing blank lines do not
// count.
func matches(want, got string) bool {
	w := strings.Split(strings.TrimRight(want, "\n"), "\n")
	g := strings.Split(strings.TrimRight(got, "\n"), "\n")
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(w) {
			return j == len(g)
		}
		if w[i] == "…" {
			for k := j; k <= len(g); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		return j < len(g) && lineMatches(w[i], g[j]) && match(i+1, j+1)
	}
	return match(0, 0)
}

func lineMatches(want, got string) bool {
	if !strings.Contains(want, "…") {
		return want == got
	}
	parts := strings.Split(want, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

// TestReadmeTour runs the README's tour against a fresh server: its first
// start must print what the README shows, and each block marked "sh tour"
// is run, in order and in one shell, by bash, its output compared with the
// "text tour-output" block after it. A command or output that changes
// fails here until the README says the same.
func TestReadmeTour(t *testing.T) {
	if testing.Short() {
		t.Skip("runs shell commands against a server")
	}
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the tour needs %s: %v", tool, err)
		}
	}
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(t, string(readme))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var firstStart bytes.Buffer
	srv, err := server.New(context.Background(), server.Config{Addr: ln.Addr().String(), DataDir: t.TempDir(),
		Out: &firstStart, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	url := "http://" + ln.Addr().String()

	printed := strings.ReplaceAll(firstStart.String(), url, readmeURL)
	var documented *block
	for i := range blocks {
		if blocks[i].info == "text first-start" {
			documented = &blocks[i]
		}
	}
	if documented == nil {
		t.Fatal(`the README has no "text first-start" block`)
	}
	if !matches(documented.body, printed) {
		t.Errorf("README line %d: the first start prints\n%s\nnot what the README shows:\n%s", documented.line, printed, documented.body)
	}
	exportKey := regexp.MustCompile(`(?m)^\s*(export KEY=\S+)$`).FindStringSubmatch(firstStart.String())
	if exportKey == nil {
		t.Fatalf("the first start prints no export KEY= line:\n%s", firstStart.String())
	}

	// One shell for the whole tour, so variables carry from step to step;
	// after each step a marker line with its exit status.
	type step struct {
		cmd, want block
	}
	var steps []step
	for i, b := range blocks {
		if b.info != "sh tour" {
			continue
		}
		if i+1 >= len(blocks) || blocks[i+1].info != "text tour-output" {
			t.Fatalf(`README line %d: a "sh tour" block must be followed by its "text tour-output" block`, b.line)
		}
		steps = append(steps, step{b, blocks[i+1]})
	}
	if len(steps) < 5 {
		t.Fatalf("the README has %d tour steps; the test expects the server tour and the error example", len(steps))
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	script.WriteString("set -o pipefail\n" + exportKey[1] + "\n")
	for _, s := range steps {
		cmd := strings.ReplaceAll(s.cmd.body, readmeURL, url)
		cmd = strings.ReplaceAll(cmd, readmeCLI, fmt.Sprintf("%s=1 %q", envAsCLI, self))
		script.WriteString(cmd + "\nprintf '\\n@@tour-step %d@@\\n' $?\n")
	}
	rctx, rcancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer rcancel()
	sh := exec.CommandContext(rctx, "bash", "-c", script.String())
	sh.Dir = root
	sh.Env = append(os.Environ(), "KEY=")
	var stdout, stderr bytes.Buffer
	sh.Stdout, sh.Stderr = &stdout, &stderr
	if err := sh.Run(); err != nil {
		t.Fatalf("the tour's shell: %v\n%s", err, stderr.String())
	}
	marker := regexp.MustCompile(`\n@@tour-step (\d+)@@\n`)
	out := stdout.String()
	for i, s := range steps {
		loc := marker.FindStringSubmatchIndex(out)
		if loc == nil {
			t.Fatalf("README line %d: the step did not finish\n%s", s.cmd.line, stderr.String())
		}
		got, status := out[:loc[0]], out[loc[2]:loc[3]]
		out = out[loc[1]:]
		if status != "0" {
			t.Errorf("README line %d: step %d exited %s\n%s", s.cmd.line, i+1, status, stderr.String())
		}
		got = strings.ReplaceAll(got, url, readmeURL)
		if !matches(s.want.body, got) {
			t.Errorf("README line %d: step %d printed\n%s\nnot what README line %d shows:\n%s", s.cmd.line, i+1, got, s.want.line, s.want.body)
		}
	}
}

// The matcher's wildcards: "…" alone is any lines, within a line any text.
func TestTourMatches(t *testing.T) {
	t.Parallel()
	cases := []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb\n\n", true},
		{"a\nb", "a\nc", false},
		{"a\n…\nd", "a\nb\nc\nd", true},
		{"a\n…\nd", "a\nd", true},
		{"a\n…\nd", "a\nb", false},
		{"key wtl_…", "key wtl_abc", true},
		{"key wtl_…", "key sk_abc", false},
		{"x.y", "xzy", false},
		{"a", "a\nb", false},
	}
	for _, tc := range cases {
		if got := matches(tc.want, tc.got); got != tc.ok {
			t.Errorf("matches(%q, %q) = %v", tc.want, tc.got, got)
		}
	}
}
