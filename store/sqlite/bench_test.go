package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/store/storetest"
)

// BenchmarkPausedSessionBytes stores 2000 paused conversations of typical
// size (storetest.SeedPausedSession) and reports what each adds to the
// database file once the WAL is checkpointed into it.
func BenchmarkPausedSessionBytes(b *testing.B) {
	const sessions = 2000
	ctx := context.Background()
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "size.db")
		s, err := sqlite.Open(path, sqlite.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ws, agent, workflow := storetest.BenchTenant(b, s)
		empty := fileSize(b, s, path)
		for i := range sessions {
			if err := storetest.SeedPausedSession(ctx, s, ws, agent, workflow, i); err != nil {
				b.Fatal(err)
			}
		}
		full := fileSize(b, s, path)
		b.ReportMetric(float64(full-empty)/sessions, "bytes/session")
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// fileSize checkpoints the WAL into the database file (TRUNCATE empties
// the WAL) and returns the file's size.
func fileSize(b *testing.B, s *sqlite.Store, path string) int64 {
	b.Helper()
	if err := sqlite.Checkpoint(context.Background(), s); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}

// BenchmarkTurnWrites is the writes of one turn: StartTurn, then EndTurn
// answering the open wait and asking again.
func BenchmarkTurnWrites(b *testing.B) {
	storetest.BenchTurns(b, openBench(b, sqlite.Options{}), false)
}

// BenchmarkTurn adds the OpenWait read a turn makes between the two.
func BenchmarkTurn(b *testing.B) {
	storetest.BenchTurns(b, openBench(b, sqlite.Options{}), true)
}

func openBench(b *testing.B, opts sqlite.Options) *sqlite.Store {
	b.Helper()
	s, err := sqlite.Open(filepath.Join(b.TempDir(), "bench.db"), opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// BenchmarkTurnParallel is whole turns from 8 goroutines per CPU at once:
// the writer serialises the writes, the reads run beside them.
func BenchmarkTurnParallel(b *testing.B) {
	storetest.BenchTurnsParallel(b, openBench(b, sqlite.Options{}), 8)
}

// BenchmarkWholeTurn is a turn's store calls: TurnState, StartTurn, EndTurn.
func BenchmarkWholeTurn(b *testing.B) {
	storetest.BenchWholeTurns(b, openBench(b, sqlite.Options{}))
}
