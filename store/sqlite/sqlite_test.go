package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := sqlite.Open(filepath.Join(t.TempDir(), "wetel.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestOpenTwice opens one file from many goroutines at once, as two
// processes starting together would: every Open succeeds and the schema is
// migrated once.
func TestOpenTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wetel.db")
	stores := storetest.OpenConcurrently(t, 6, func() (*sqlite.Store, error) { return sqlite.Open(path, sqlite.Options{}) })
	versions, err := sqlite.AppliedMigrations(t.Context(), stores[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) == 0 || versions[0] != 1 {
		t.Errorf("schema_migrations holds %v", versions)
	}
	for i := 1; i < len(versions); i++ {
		if versions[i] <= versions[i-1] {
			t.Errorf("schema_migrations holds %v: a migration applied twice", versions)
		}
	}
}

// TestCloseReleases: after Close the WAL is checkpointed away and the file
// opens again with its data.
func TestCloseReleases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wetel.db")
	s, err := sqlite.Open(path, sqlite.Options{Synchronous: "full"})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := s.CreateWorkspace(t.Context(), "kept")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Errorf("the WAL is still there after Close: %v", err)
	}
	s, err = sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.Workspace(t.Context(), ws.ID); err != nil || got.Name != "kept" {
		t.Errorf("after reopening: %+v, %v", got, err)
	}
}

func TestOpenRefusesBadOptions(t *testing.T) {
	if _, err := sqlite.Open(filepath.Join(t.TempDir(), "x.db"), sqlite.Options{Synchronous: "sometimes"}); err == nil {
		t.Error("an unknown synchronous mode was accepted")
	}
}
