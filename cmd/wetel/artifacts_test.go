package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestRunWritesThePDF: offline, a pdf_export node's PDF lands in a new
// folder under the temporary folder, and stderr says where.
func TestRunWritesThePDF(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	r := wetel(t, "run", filepath.Join("testdata", "pdf-export.json"), "--message", "Lisbon")
	d := decodeRun(t, r)
	if r.code != 0 || len(d.Turns) != 1 || d.Turns[0].Runs[0].Status != "COMPLETED" || d.Turns[0].Messages[0].Text != "artifact 1" {
		t.Fatalf("exit %d, %+v\n%s", r.code, d, r.stderr)
	}
	m := regexp.MustCompile(`artifact 1 \(pdf, \d+ bytes\) written to (\S+)`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("stderr does not say where the PDF went: %q", r.stderr)
	}
	if filepath.Dir(filepath.Dir(m[1])) != tmp || filepath.Base(m[1]) != "1-Trip-Lisbon.pdf" {
		t.Errorf("written to %s, want %s/wetel-artifacts-*/1-Trip-Lisbon.pdf", m[1], tmp)
	}
	b, err := os.ReadFile(m[1])
	if err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("the file: %v, starts %q", err, b[:min(5, len(b))])
	}
}
