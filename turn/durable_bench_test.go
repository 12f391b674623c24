package turn_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/wetel/wetel/store/postgres"
	"github.com/wetel/wetel/store/postgres/pgtest"
	"github.com/wetel/wetel/vocab"
	_ "modernc.org/sqlite" // database/sql driver, for the checkpoint and file size
)

// BenchmarkAwaitResumeSQLite is the peers' W2: per op, a new session asks
// (build options, await_reply, paused and persisted), then the reply
// "architect" resumes it and the confirmation names "Solution Architect".
// Durable: every turn is committed to SQLite (WAL, synchronous=NORMAL).
func BenchmarkAwaitResumeSQLite(b *testing.B) {
	benchAwaitResume(b, newFixture(b, awaitResume(b)))
}

// BenchmarkAwaitResumePostgres is W2 on PostgreSQL (WETEL_TEST_DATABASE_URL).
func BenchmarkAwaitResumePostgres(b *testing.B) {
	st, err := postgres.Open(context.Background(), pgtest.URL(b))
	if err != nil {
		b.Fatal(err)
	}
	benchAwaitResume(b, newFixtureOn(b, awaitResume(b), st))
}

// BenchmarkAwaitResumeSQLiteConcurrent is W2 with 64 sessions in flight at
// once (32 per CPU), as a server with many conversations sees them: turns
// of different sessions share commits (the SQLite store's group commit).
func BenchmarkAwaitResumeSQLiteConcurrent(b *testing.B) {
	f := newFixture(b, awaitResume(b))
	f.svc.Clock, f.svc.Engine = nil, mustEngine(b)
	b.SetParallelism(32)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s := f.session(b)
			f.send(b, s, "hello")
			if res := f.send(b, s, "architect"); res.Messages[0].Text != "You chose Solution Architect." {
				b.Errorf("reply %+v", res.Messages)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

func awaitResume(b *testing.B) string {
	data, err := os.ReadFile(filepath.Join("..", "bench", "workloads", "await-resume.json"))
	if err != nil {
		b.Fatalf("benchmark workload: %v", err)
	}
	return string(data)
}

func benchAwaitResume(b *testing.B, f *fixture) {
	f.svc.Clock, f.svc.Engine = nil, mustEngine(b)
	cycle := func() {
		s := f.session(b)
		f.send(b, s, "hello")
		if res := f.send(b, s, "architect"); res.Messages[0].Text != "You chose Solution Architect." {
			b.Fatalf("reply %+v", res.Messages)
		}
	}
	cycle()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cycle()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkPausedSessionBytes reports what one paused session costs on disk
// (session, transcript, run with its trace, wait with options and snapshot),
// measured as the peers do: 2000 sessions asked, a TRUNCATE checkpoint, the
// file size divided by the sessions.
func BenchmarkPausedSessionBytes(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "bench", "workloads", "await-resume.json"))
	if err != nil {
		b.Fatalf("benchmark workload: %v", err)
	}
	const sessions = 2000
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		f := newFixtureAt(b, string(data), filepath.Join(dir, "w.db"))
		f.svc.Engine = mustEngine(b)
		f.svc.Clock = nil
		for j := 0; j < sessions; j++ {
			if res := f.send(b, f.session(b), "hello"); res.Runs[0].Status != vocab.RunAwaitingInput {
				b.Fatalf("run %+v", res.Runs[0])
			}
		}
		f.st.Close()
		db, err := sql.Open("sqlite", filepath.Join(dir, "w.db"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			b.Fatal(err)
		}
		db.Close()
		fi, err := os.Stat(filepath.Join(dir, "w.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(fi.Size())/sessions, "bytes/session")
	}
}
