package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/store/storetest"
)

// Issue 10: with 200 writers and continuous readers the WAL sat at its
// 64 MiB backstop (65–130 MiB seen): the background checkpoint never
// caught up with the writer, so the log never restarted. It must stay
// near a few MiB; the largest size seen is logged.
func TestWALBoundedUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("a load test")
	}
	const writers, sessionsEach, readers = 200, 40, 4
	path := filepath.Join(t.TempDir(), "wal.db")
	s, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ws, agent, workflow := storetest.BenchTenant(t, s)

	var largest atomic.Int64
	sample := func() {
		fi, err := os.Stat(path + "-wal")
		if err != nil {
			return
		}
		for cur := largest.Load(); fi.Size() > cur && !largest.CompareAndSwap(cur, fi.Size()); cur = largest.Load() {
		}
	}
	stop := make(chan struct{})
	var reading sync.WaitGroup
	var reads atomic.Int64
	for range readers {
		reading.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				sessions, err := s.Sessions(ctx, ws, store.SessionQuery{Limit: 50})
				if err != nil {
					t.Error(err)
					return
				}
				for _, sess := range sessions[:min(len(sessions), 5)] {
					if _, err := s.Messages(ctx, ws, sess.ID); err != nil {
						t.Error(err)
						return
					}
				}
				reads.Add(1)
				sample()
			}
		})
	}
	var writing sync.WaitGroup
	for w := range writers {
		writing.Go(func() {
			for i := range sessionsEach {
				if err := storetest.SeedPausedSession(ctx, s, ws, agent, workflow, w*sessionsEach+i); err != nil {
					t.Error(err)
					return
				}
				sample()
			}
		})
	}
	writing.Wait()
	close(stop)
	reading.Wait()
	const bound = 16 << 20
	t.Logf("largest WAL: %.1f MiB, %d writers storing %d sessions beside %d readers (%d reads)",
		float64(largest.Load())/(1<<20), writers, writers*sessionsEach, readers, reads.Load())
	if largest.Load() > bound {
		t.Errorf("the WAL reached %d bytes, over %d", largest.Load(), bound)
	}
}
