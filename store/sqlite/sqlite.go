// Package sqlite is the embedded store.Store: one SQLite file in WAL mode,
// pure Go (modernc.org/sqlite), no server to run.
//
// Writes go through a single connection, so writers queue in Go instead of
// contending for SQLite's write lock, and every write transaction starts
// with BEGIN IMMEDIATE so it never fails halfway with SQLITE_BUSY when
// another process holds the lock: the busy timeout waits for it up front.
// Reads take the writer when it is idle (its page cache is the current
// one) and otherwise a small pool of readers that WAL runs beside it.
//
// A turn's writes cost mostly page writes to the WAL at commit, one per
// b-tree page changed, so the schema keeps only the indexes queries need.
package sqlite

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/wetel/wetel/clock"
)

// Options tunes a Store; the zero value is the recommended setting.
type Options struct {
	// Synchronous is PRAGMA synchronous: NORMAL (the default), FULL, EXTRA
	// or OFF. In WAL mode NORMAL syncs only at checkpoints: a crash of the
	// process loses nothing, but a power loss or OS crash can lose the
	// newest commits (never corrupt the file). FULL syncs every commit and
	// survives power loss, at the cost of an fsync per transaction.
	Synchronous string
	// BusyTimeout is how long a statement waits for another process's
	// lock before failing; default 5s.
	BusyTimeout time.Duration
	// Readers is the number of read connections, used when the writer is
	// busy; default 4.
	Readers int
}

// Store is a store.Store on one SQLite file. It is safe for concurrent use.
type Store struct {
	w, r      *pool // the writer (one connection) and the readers
	commits   group // writes waiting to share a commit
	cp        *checkpointer
	closeOnce sync.Once
	closeErr  error
}

// Open opens (creating if needed) the database file at path and migrates
// its schema to the newest version.
func Open(path string, opts Options) (*Store, error) {
	s, err := open(path, opts)
	if err != nil {
		return nil, fmt.Errorf("opening sqlite %q: %w", path, err)
	}
	return s, nil
}

func open(path string, opts Options) (*Store, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, errors.New("the path must not contain ? or #")
	}
	syncMode := strings.ToUpper(opts.Synchronous)
	switch syncMode {
	case "":
		syncMode = "NORMAL"
	case "OFF", "NORMAL", "FULL", "EXTRA":
	default:
		return nil, fmt.Errorf("unknown synchronous mode %q", opts.Synchronous)
	}
	busy := opts.BusyTimeout
	if busy <= 0 {
		busy = 5 * time.Second
	}
	readers := opts.Readers
	if readers <= 0 {
		readers = 4
	}
	// busy_timeout is applied first by the driver, so setting WAL mode on a
	// file another process is creating waits rather than fails.
	busyPragma := "busy_timeout(" + strconv.FormatInt(busy.Milliseconds(), 10) + ")"
	wq := url.Values{"_pragma": {busyPragma}}
	setup := `PRAGMA journal_mode = WAL; PRAGMA synchronous = ` + syncMode + `; PRAGMA foreign_keys = 1;` +
		writerPragmas
	w, err := openWriter(path+"?"+wq.Encode(), setup, busy)
	if err != nil {
		return nil, fmt.Errorf("opening the writer: %w", err)
	}
	if err := applyMigrations(w); err != nil {
		_ = w.close()
		return nil, err
	}
	rq := url.Values{"_pragma": {busyPragma, "query_only(1)"}}
	rs := make([]*conn, 0, readers)
	for range readers {
		c, err := openConn(path + "?" + rq.Encode())
		if err != nil {
			for _, c := range rs {
				_ = c.close()
			}
			_ = w.close()
			return nil, fmt.Errorf("opening a reader: %w", err)
		}
		rs = append(rs, c)
	}
	cc, err := openConn(path + "?" + wq.Encode())
	if err != nil {
		for _, c := range rs {
			_ = c.close()
		}
		_ = w.close()
		return nil, fmt.Errorf("opening the checkpointer: %w", err)
	}
	s := &Store{w: newPool([]*conn{w}), r: newPool(rs)}
	s.cp = newCheckpointer(cc, func() error { return s.restartWAL(busy) })
	return s, nil
}

// restartWait bounds how long a RESTART checkpoint waits for readers still
// reading the log's frames, while the writer is held. A reader that takes
// longer only delays the restart to the next try.
const restartWait = 20 * time.Millisecond

// restartWAL runs a RESTART checkpoint on the writer, so that no commit
// lands between copying the last frame and restarting the log (see
// checkpointer). busy is the writer's busy timeout, set back after.
func (s *Store) restartWAL(busy time.Duration) error {
	c, err := s.w.get(bg)
	if err != nil {
		return err
	}
	defer s.w.put(c)
	if err := c.script("PRAGMA busy_timeout = " + strconv.FormatInt(restartWait.Milliseconds(), 10)); err != nil {
		return err
	}
	_, err = checkpoint(c, "RESTART")
	return errors.Join(err, c.script("PRAGMA busy_timeout = "+strconv.FormatInt(busy.Milliseconds(), 10)))
}

// writerPragmas tune the writer, the only connection that commits.
//
// Checkpoints run in the background (see checkpointer); the writer's own
// autocheckpoint is the backstop for when those fall behind, at 16000 pages
// (64 MB of WAL). journal_size_limit trims the WAL file back to 4 MiB when
// the log restarts, so a burst that grew it does not keep the space.
// Neither changes what a crash can lose.
const writerPragmas = `PRAGMA wal_autocheckpoint = 16000; PRAGMA journal_size_limit = 4194304`

// openWriter opens the write connection, retrying while another process
// holds the lock. Switching a new file to WAL needs an exclusive lock, and
// SQLite answers SQLITE_BUSY at once, without its busy handler, when two
// connections would otherwise wait on each other for it.
func openWriter(dsn, setup string, timeout time.Duration) (*conn, error) {
	deadline := time.Now().Add(timeout)
	for attempt := 0; ; attempt++ {
		c, err := openConn(dsn)
		if err == nil {
			if err = c.script(setup); err != nil {
				_ = c.close()
				c = nil
			}
		}
		if err == nil || code(err)&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return c, err
		}
		time.Sleep(clock.Backoff(time.Millisecond, 50*time.Millisecond, attempt))
	}
}

// Close waits for calls in progress, then closes every connection; the last
// to close checkpoints the WAL into the database file. Closing twice is
// harmless.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.closeErr = errors.Join(s.cp.close(), s.r.close(), s.w.close())
	})
	return s.closeErr
}

// read runs fn on the writer when it is idle, else on a reader. The
// writer's page cache is current; a reader's is dropped whenever another
// connection commits, so a read right after a write (a turn reads its open
// wait between two writes) costs it several page reads.
func (s *Store) read(ctx context.Context, fn func(*conn) error) error {
	if c := s.w.tryGet(); c != nil {
		defer s.w.put(c)
		return fn(c)
	}
	c, err := s.r.get(ctx)
	if err != nil {
		return err
	}
	defer s.r.put(c)
	return fn(c)
}

// readTx runs fn in one read transaction, so that its statements see one
// snapshot, on the writer when it is idle, else on a reader.
func (s *Store) readTx(ctx context.Context, fn func(*conn) error) error {
	return s.read(ctx, func(c *conn) error {
		if _, err := c.exec(qBeginRead); err != nil {
			return fmt.Errorf("beginning a read: %w", err)
		}
		err := fn(c)
		if _, cerr := c.exec(qCommit); cerr != nil {
			// COMMIT ends a read transaction whatever fn did; if it did
			// not, ROLLBACK does.
			_, _ = c.exec(qRollback)
			if err == nil {
				err = fmt.Errorf("ending a read: %w", cerr)
			}
		}
		return err
	})
}
