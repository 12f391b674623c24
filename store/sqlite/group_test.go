package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// TestGroupCommitIsolatesWrites queues writes while the writer is held, so
// that they all share one transaction, and checks that a failing write is
// undone alone, a panicking one panics on its own caller's goroutine, and
// the rest are committed.
func TestGroupCommitIsolatesWrites(t *testing.T) {
	t.Parallel()
	s, err := Open(filepath.Join(t.TempDir(), "g.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	held, err := s.w.get(ctx)
	if err != nil {
		t.Fatal(err)
	}

	const n = 12
	errBoom := errors.New("boom")
	results := make([]error, n)
	panics := make([]any, n)
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			results[i] = s.write(ctx, func(c *conn) error {
				v, err := c.row(qInsWorkspace, fmt.Sprint("w", i), int64(1))
				if err != nil {
					return err
				}
				ids[i] = i64(v[0])
				switch i % 3 {
				case 1:
					return errBoom
				case 2:
					panic(fmt.Sprint("panic ", i))
				}
				return nil
			})
		}()
	}
	waitQueued(t, s, n)
	s.w.put(held)
	wg.Wait()

	for i := range n {
		// A rolled-back row's id is taken again by a later write, so
		// the name tells whose row it is.
		w, err := s.Workspace(ctx, ids[i])
		kept := err == nil && w.Name == fmt.Sprint("w", i)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		switch i % 3 {
		case 0:
			if results[i] != nil || panics[i] != nil || !kept {
				t.Errorf("write %d: err %v, panic %v, kept %v; want committed", i, results[i], panics[i], kept)
			}
		case 1:
			if !errors.Is(results[i], errBoom) || kept {
				t.Errorf("write %d: err %v, kept %v; want its own error and nothing kept", i, results[i], kept)
			}
		case 2:
			// The panic keeps the stack of the goroutine the write ran on,
			// the leader's, whose frames its recover unwound.
			p, ok := panics[i].(*writePanic)
			if !ok || p.value != fmt.Sprint("panic ", i) || kept {
				t.Errorf("write %d: panic %v, kept %v; want its own panic and nothing kept", i, panics[i], kept)
			} else if !strings.Contains(string(p.stack), "TestGroupCommitIsolatesWrites.func") {
				t.Errorf("write %d: the panic's stack lacks the write function's frame:\n%s", i, p.stack)
			}
		}
	}
}

// waitQueued waits until n writes are queued behind a leader.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.commits.mu.Lock()
		queued := len(s.commits.queue)
		s.commits.mu.Unlock()
		if queued == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d writes queued, want %d", queued, n)
		}
		time.Sleep(time.Millisecond)
	}
}
