package sqlite

import (
	"database/sql/driver"
	"fmt"
	"sync"
)

// checkpointEvery is how many writes pass between background checkpoints.
// A turn writes twice and changes about ten pages, so this copies the WAL
// back into the database file every hundred-odd turns. Writes rather than
// commits are counted: under load one commit carries a group of writes.
const checkpointEvery = 250

// restartFrames is the WAL length, in frames (pages), at which the log is
// restarted from its beginning: 1024 frames of 4 KiB, 4 MiB.
const restartFrames = 1024

// checkpointer copies the WAL into the database file on its own connection
// and goroutine. Left to the writer, SQLite checkpoints inside the commit
// that crosses the threshold, and that commit pays for copying every page
// and for both fsyncs: about a tenth of all write time, landing on one
// unlucky turn's latency. A PASSIVE checkpoint runs beside the writer and
// never blocks it.
//
// But a PASSIVE checkpoint alone never shortens the log under steady
// writes: SQLite restarts the WAL from its beginning only when a write
// begins with every frame already copied back, and with writes arriving
// all the time there is always a newer frame. The WAL then grew to the
// writer's autocheckpoint backstop (64 MiB, 65–130 MiB measured with 200
// writers and continuous readers). So when the log is over restartFrames
// after a PASSIVE pass, restart holds the writer for a moment and runs a
// RESTART checkpoint there: only the frames written since the pass are left
// to copy, readers get restartWait to move off the log, and the next write
// starts it again from the beginning. The writer's own autocheckpoint stays
// as a backstop.
type checkpointer struct {
	c       *conn
	restart func() error // a RESTART checkpoint with the writer held
	kick    chan struct{}
	done    chan struct{}
	stop    sync.Once
	writes  int // counted by the commit leader, one at a time
}

func newCheckpointer(c *conn, restart func() error) *checkpointer {
	cp := &checkpointer{c: c, restart: restart, kick: make(chan struct{}, 1), done: make(chan struct{})}
	go cp.run()
	return cp
}

// committed counts a commit of n writes and wakes the goroutine every
// checkpointEvery writes. Only the commit leader calls it, so the counter
// needs no lock.
func (cp *checkpointer) committed(n int) {
	cp.writes += n
	if cp.writes < checkpointEvery {
		return
	}
	cp.writes = 0
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
		frames, err := checkpoint(cp.c, "PASSIVE")
		if err == nil && frames >= restartFrames {
			_ = cp.restart()
		}
	}
}

// checkpoint runs a checkpoint of mode on c and returns the log's length
// in frames.
func checkpoint(c *conn, mode string) (frames int64, err error) {
	r, err := c.dc.(driver.QueryerContext).QueryContext(bg, "PRAGMA wal_checkpoint("+mode+")", nil)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	vals := make([]driver.Value, len(r.Columns()))
	if err := r.Next(vals); err != nil {
		return 0, fmt.Errorf("checkpoint %s: %w", mode, err)
	}
	// busy, log, checkpointed
	n, _ := vals[1].(int64)
	return n, nil
}

// close stops the goroutine and closes its connection.
func (cp *checkpointer) close() error {
	cp.stop.Do(func() { close(cp.kick) })
	<-cp.done
	return cp.c.close()
}
