package sqlite

import (
	"sync"
)

// checkpointEvery is how many commits pass between background checkpoints.
// A turn commits twice and changes about ten pages, so this copies the WAL
// back into the database file every few hundred turns, keeping it to a few
// megabytes.
const checkpointEvery = 500

// checkpointer copies the WAL into the database file on its own connection
// and goroutine. Left to the writer, SQLite checkpoints inside the commit
// that crosses the threshold, and that commit pays for copying every page
// and for both fsyncs: about a tenth of all write time, landing on one
// unlucky turn's latency. A PASSIVE checkpoint runs beside the writer and
// never blocks it; the writer's own autocheckpoint stays as a backstop, at
// a threshold the WAL reaches only if this one falls behind.
type checkpointer struct {
	c       *conn
	kick    chan struct{}
	done    chan struct{}
	stop    sync.Once
	commits int // counted by the commit leader, one at a time
}

func newCheckpointer(c *conn) *checkpointer {
	cp := &checkpointer{c: c, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go cp.run()
	return cp
}

// committed counts a commit and wakes the goroutine every checkpointEvery
// commits. Only the commit leader calls it, so the counter needs no lock.
func (cp *checkpointer) committed() {
	cp.commits++
	if cp.commits < checkpointEvery {
		return
	}
	cp.commits = 0
	select {
	case cp.kick <- struct{}{}:
	default: // one is already due
	}
}

func (cp *checkpointer) run() {
	defer close(cp.done)
	for range cp.kick {
		// A failed checkpoint is retried at the next kick; the WAL only
		// grows meanwhile, and the writer's backstop bounds it.
		_ = cp.c.script(`PRAGMA wal_checkpoint(PASSIVE)`)
	}
}

// close stops the goroutine and closes its connection.
func (cp *checkpointer) close() error {
	cp.stop.Do(func() { close(cp.kick) })
	<-cp.done
	return cp.c.close()
}
