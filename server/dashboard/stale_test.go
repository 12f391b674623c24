package dashboard

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// sourceRoots are the files and folders of web/ the build depends on;
// web/stamp.mjs hashes the same list the same way.
var sourceRoots = []string{"index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "stamp.mjs", "src"}

func sourceHash(t *testing.T, web string) string {
	t.Helper()
	var files []string
	for _, r := range sourceRoots {
		err := filepath.WalkDir(filepath.Join(web, r), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				rel, err := filepath.Rel(web, p)
				if err != nil {
					return err
				}
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(web, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(f + "\x00"))
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestBuildIsFresh fails when web/ changed after the committed build: the
// binary would serve a dashboard that is not the one in the sources.
func TestBuildIsFresh(t *testing.T) {
	want, err := os.ReadFile("source.sha256")
	if err != nil {
		t.Fatal(err)
	}
	if got := sourceHash(t, filepath.Join("..", "..", "web")); got != strings.TrimSpace(string(want)) {
		t.Fatalf("the committed dashboard build (server/dashboard/dist) is stale: web/ hashes to %s, the build was made from %s.\n"+
			"Rebuild it: cd web && npm ci && npm run build, and commit server/dashboard.", got, strings.TrimSpace(string(want)))
	}
}

// TestBuildIsSmall keeps the committed bundle lean: no source maps, and
// no accidental second copy of a library.
func TestBuildIsSmall(t *testing.T) {
	var total int64
	err := fs.WalkDir(dist, "dist", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".map") {
			t.Errorf("%s: source maps are not committed", p)
		}
		if !d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total > 1<<20 {
		t.Errorf("the dashboard build is %d bytes; keep it under 1 MiB", total)
	}
}
