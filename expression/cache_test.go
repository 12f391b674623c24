package expression

import (
	"fmt"
	"sync"
	"testing"
)

func TestCompileCaches(t *testing.T) {
	t.Parallel()
	a, err := Compile("cached + 1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compile("cached + 1")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("compiling the same source twice returned different programs")
	}
	if a.Source() != "cached + 1" {
		t.Errorf("Source() = %q", a.Source())
	}
	// Variables hands out a copy, so callers cannot corrupt the shared one.
	a.Variables()[0] = "changed"
	if got := b.Variables(); got[0] != "cached" {
		t.Errorf("Variables() = %v after modifying a copy", got)
	}
}

func TestCompileErrorsAreNotCached(t *testing.T) {
	t.Parallel()
	for range 2 {
		if p, err := Compile("uncached >"); err == nil {
			t.Fatalf("Compile = %v, want an error", p)
		}
	}
	if p := programs.get("uncached >"); p != nil {
		t.Error("a failed compilation was cached")
	}
}

// TestConcurrentCompileEval is mostly for the race detector: many
// goroutines compiling the same and different sources and evaluating the
// shared programs, including heavy ones that use the pooled env copies.
func TestConcurrentCompileEval(t *testing.T) {
	t.Parallel()
	const goroutines = 8
	sources := make([]string, 50)
	for i := range sources {
		sources[i] = fmt.Sprintf("join(map(items, # + %q), \"\") + string(v7 + %d)", fmt.Sprint(i), i)
	}
	vars := testVars()
	results := make([][]*Program, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for _, src := range sources {
				p, err := Compile(src)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := p.Eval(vars); err != nil {
					t.Error(err)
					return
				}
				results[g] = append(results[g], p)
			}
		})
	}
	wg.Wait()
	for g := 1; g < goroutines; g++ {
		for i := range results[g] {
			if results[g][i] != results[0][i] {
				t.Fatalf("goroutines got different programs for %q", sources[i])
			}
		}
	}
}

func TestCacheIsBounded(t *testing.T) {
	t.Parallel()
	c := &cache{entries: make(map[string]*Program)}
	for i := range cacheSize + 100 {
		src := fmt.Sprint(i)
		if got := c.put(src, &Program{source: src}); got.source != src {
			t.Fatalf("put(%q) returned %q", src, got.source)
		}
	}
	if n := c.len(); n != cacheSize {
		t.Errorf("cache holds %d programs, want %d", n, cacheSize)
	}
	first := c.put("same", &Program{source: "same"})
	if again := c.put("same", &Program{}); again != first || c.get("same") != first {
		t.Error("put replaced a cached program")
	}
}
