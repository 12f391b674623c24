package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/postgres"
	"github.com/wetel/wetel/store/postgres/pgtest"
	"github.com/wetel/wetel/store/storetest"
)

func openFresh(tb testing.TB) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(context.Background(), pgtest.URL(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	pgtest.URL(t)
	storetest.Run(t, func(t *testing.T) store.Store { return openFresh(t) })
}

// TestOpenTwice opens one schema from many goroutines at once, as processes
// starting together would: every Open succeeds, the advisory lock lets one
// migrate, and the others find the schema ready.
func TestOpenTwice(t *testing.T) {
	u := pgtest.URL(t)
	storetest.OpenConcurrently(t, 6, func() (*postgres.Store, error) { return postgres.Open(context.Background(), u) })
}

func TestOpenRefusesBadPoolSize(t *testing.T) {
	u := pgtest.URL(t) + "&pool_max_conns=none"
	if _, err := postgres.Open(context.Background(), u); err == nil {
		t.Error("pool_max_conns=none was accepted")
	}
}

// TestCloseReleases: after Close the store holds no server connection.
func TestCloseReleases(t *testing.T) {
	base := pgtest.URL(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	app := "wetel_close_" + hex.EncodeToString(b[:])
	s, err := postgres.Open(context.Background(), base+"&application_name="+app)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 { // several connections at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.CreateWorkspace(t.Context(), "w"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	// A backend leaves pg_stat_activity shortly after its client hangs up.
	var n int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := c.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 || time.Now().After(deadline) {
			break
		}
	}
	if n != 0 {
		t.Errorf("%d connections still open after Close", n)
	}
}
