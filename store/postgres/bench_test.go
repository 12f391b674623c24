package postgres_test

import (
	"context"
	"testing"

	"github.com/wetel/wetel/store/postgres/pgtest"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store/postgres"
	"github.com/wetel/wetel/store/storetest"
)

// BenchmarkTurnWrites is the writes of one turn: StartTurn, then EndTurn
// answering the open wait and asking again.
func BenchmarkTurnWrites(b *testing.B) {
	storetest.BenchTurns(b, openBench(b), false)
}

// BenchmarkTurn adds the OpenWait read a turn makes between the two.
func BenchmarkTurn(b *testing.B) {
	storetest.BenchTurns(b, openBench(b), true)
}

// BenchmarkWholeTurn is a turn's store calls: TurnState, StartTurn, EndTurn.
func BenchmarkWholeTurn(b *testing.B) {
	storetest.BenchWholeTurns(b, openBench(b))
}

// BenchmarkPausedSessionBytes stores 2000 paused conversations of typical
// size and reports what each adds to the schema's tables and indexes,
// compacted (VACUUM FULL) so dead row versions left by the turns' updates
// do not count.
func BenchmarkPausedSessionBytes(b *testing.B) {
	const sessions = 2000
	ctx := context.Background()
	for b.Loop() {
		u := pgtest.URL(b)
		s, err := postgres.Open(ctx, u)
		if err != nil {
			b.Fatal(err)
		}
		ws, agent, workflow := storetest.BenchTenant(b, s)
		empty := schemaBytes(b, u)
		for i := range sessions {
			if err := storetest.SeedPausedSession(ctx, s, ws, agent, workflow, i); err != nil {
				b.Fatal(err)
			}
		}
		_ = s.Close()
		b.ReportMetric(float64(schemaBytes(b, u)-empty)/sessions, "bytes/session")
	}
}

// schemaBytes compacts the tables of the schema in u and returns their
// size with indexes and TOAST.
func schemaBytes(b *testing.B, u string) int64 {
	b.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `VACUUM FULL`); err != nil {
		b.Fatal(err)
	}
	var n int64
	err = c.QueryRow(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint
		FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'`).Scan(&n)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func openBench(b *testing.B) *postgres.Store {
	b.Helper()
	s := openFresh(b)
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// BenchmarkTurnParallel is whole turns from 8 goroutines per CPU at once.
func BenchmarkTurnParallel(b *testing.B) {
	storetest.BenchTurnsParallel(b, openBench(b), 8)
}
