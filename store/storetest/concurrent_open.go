package storetest

import (
	"sync"
	"testing"

	"github.com/wetel/wetel/store"
)

// OpenConcurrently opens the same database n times at once, as processes
// starting together would: every open must succeed (one of them migrates,
// the others find the schema ready) and a row written through one store must
// be read through another. The stores are closed when t ends; the caller may
// check driver-specific state (applied migrations) on them.
func OpenConcurrently[S store.Store](t *testing.T, n int, open func() (S, error)) []S {
	t.Helper()
	stores := make([]S, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = open()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		s := stores[i]
		t.Cleanup(func() { s.Close() })
	}
	ws, err := stores[0].CreateWorkspace(t.Context(), "shared")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stores[n-1].Workspace(t.Context(), ws.ID); err != nil {
		t.Errorf("a workspace written by one store is not read by another: %v", err)
	}
	return stores
}
