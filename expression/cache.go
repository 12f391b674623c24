package expression

import "sync"

// cacheSize bounds the compiled-program cache. Graphs hold a few dozen
// expressions each, so this covers many graphs while capping memory.
const cacheSize = 4096

// programs caches compiled programs by source.
var programs = &cache{entries: make(map[string]*Program)}

type cache struct {
	mu      sync.RWMutex
	entries map[string]*Program
}

func (c *cache) get(src string) *Program {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.entries[src]
}

// put stores p unless another goroutine compiled the same source first, and
// returns the stored program so every caller shares one.
func (c *cache) put(src string, p *Program) *Program {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[src]; ok {
		return old
	}
	if len(c.entries) >= cacheSize {
		// Dropping whichever entry map iteration yields first is close
		// enough to random eviction, and a dropped program only costs a
		// recompile.
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[src] = p
	return p
}

func (c *cache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
