package artifact_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wetel/wetel/artifact"
)

func TestSafeFilename(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"trip.pdf", "trip.pdf"},
		{"Your trip to Αθήνα.pdf", "Your-trip-to.pdf"},
		{`../../etc/passwd`, "etc-passwd"},
		{"a\"b;c\r\nX-Evil: 1.pdf", "a-b-c-X-Evil-1.pdf"},
		{"Путешествие.pdf", "artifact.pdf"},
		{".hidden", "artifact.hidden"},
		{"report.final version", "report-final-version"},
		{"", "artifact"},
		{"...", "artifact"},
		{strings.Repeat("x", 300) + ".pdf", strings.Repeat("x", 116) + ".pdf"},
	} {
		if got := artifact.SafeFilename(c.in); got != c.want {
			t.Errorf("SafeFilename(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDir(t *testing.T) {
	ctx := context.Background()
	var wrote []string
	d := &artifact.Dir{Path: t.TempDir(), Wrote: func(_ artifact.Artifact, p string) { wrote = append(wrote, p) }}
	a, err := d.Put(ctx, artifact.Artifact{Kind: artifact.PDF, Name: "Trip plan.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4")})
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != 1 || len(wrote) != 1 || wrote[0] != filepath.Join(d.Path, "1-Trip-plan.pdf") {
		t.Fatalf("Put = id %d, wrote %v", a.ID, wrote)
	}
	if b, err := os.ReadFile(wrote[0]); err != nil || string(b) != "%PDF-1.4" {
		t.Errorf("file holds %q, %v", b, err)
	}
	got, err := d.Get(ctx, 1)
	if err != nil || string(got.Data) != "%PDF-1.4" || got.ContentType != "application/pdf" || got.Kind != artifact.PDF || got.Size != 8 {
		t.Errorf("Get = %+v, %v", got, err)
	}
	if _, err := d.Get(ctx, 2); !errors.Is(err, artifact.ErrNotFound) {
		t.Errorf("Get of an id never written: %v, want ErrNotFound", err)
	}
}

func TestDirMakesAFolder(t *testing.T) {
	d := &artifact.Dir{}
	if _, err := d.Put(context.Background(), artifact.Artifact{Kind: artifact.PDF, Name: "x.pdf", ContentType: "application/pdf"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d.Path) })
	if fi, err := os.Stat(filepath.Join(d.Path, "1-x.pdf")); err != nil || fi.Size() != 0 {
		t.Errorf("stat: %v", err)
	}
}
