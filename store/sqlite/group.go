package sqlite

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// maxGroup bounds how many writes share one commit, so that one commit's
// latency stays small however long the queue grows.
const maxGroup = 64

// group is the group commit: writes that arrive while a commit is in
// progress queue here, and the next leader runs all of them in one
// transaction.
//
// A commit costs mostly its page writes to the WAL, and concurrent turns
// change the same pages (the newest leaf of the runs, messages and waits
// tables and of their indexes), so many turns in one commit write each of
// those pages once instead of once per turn. A write alone in the queue
// commits by itself at once: nothing waits for company.
type group struct {
	mu      sync.Mutex
	queue   []*pendingWrite
	leading bool            // a leader is running; invariant: !leading implies len(queue) == 0
	batch   []*pendingWrite // the leader's, reused: one leader at a time
}

// pendingWrite is one call's write and, once done, its result.
type pendingWrite struct {
	fn func(*conn) error
	// wake is closed once: when another leader has committed (or failed)
	// this write, or when this write's caller is to lead the next commit.
	wake     chan struct{}
	lead     bool
	err      error
	panicked *writePanic
}

// writePanic is a write function's panic, raised again on its caller's
// goroutine. Recovering it (on whichever goroutine led the commit) unwound
// the function's frames, so it carries the stack taken at the recover; a
// crash or a recovering caller's log prints both that and the value.
type writePanic struct {
	value any
	stack []byte
}

func (p *writePanic) Error() string {
	return fmt.Sprintf("%v [recovered in a store write; the write's stack:]\n%s", p.value, p.stack)
}

// Unwrap returns the panic value when it is an error, for errors.Is and As.
func (p *writePanic) Unwrap() error {
	err, _ := p.value.(error)
	return err
}

// write runs fn in a BEGIN IMMEDIATE transaction on the writer and returns
// once it is committed; fn's changes are undone, and its error returned,
// when it fails. fn may share the transaction with other calls' writes, each
// in its own savepoint, so it must leave the connection as it found it.
//
// Once queued, a write is not abandoned when ctx ends: it is committed or
// refused with the rest of its group, so a caller never returns while its
// write may still land.
func (s *Store) write(ctx context.Context, fn func(*conn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w := &pendingWrite{fn: fn}
	g := &s.commits
	g.mu.Lock()
	g.queue = append(g.queue, w)
	if g.leading {
		// Only a write that waits needs a channel to be woken by.
		w.wake = make(chan struct{})
		g.mu.Unlock()
		<-w.wake
	} else {
		g.leading = true
		g.mu.Unlock()
		w.lead = true
	}
	if w.lead {
		s.leadCommit(ctx)
	}
	if w.panicked != nil {
		panic(w.panicked)
	}
	return w.err
}

// leadCommit takes the queue's head (this leader's own write first),
// commits it, wakes its writers and hands the lead to the next writer
// waiting, if any.
func (s *Store) leadCommit(ctx context.Context) {
	g := &s.commits
	c, err := s.w.get(context.WithoutCancel(ctx))
	g.mu.Lock()
	n := min(len(g.queue), maxGroup)
	batch := append(g.batch[:0], g.queue[:n]...)
	g.queue = append(g.queue[:0], g.queue[n:]...)
	g.mu.Unlock()

	if err != nil {
		for _, w := range batch {
			w.err = err
		}
	} else {
		commitGroup(c, batch)
		s.w.put(c)
		s.cp.committed(len(batch))
	}
	for _, w := range batch[1:] {
		close(w.wake)
	}
	clear(batch)

	g.mu.Lock()
	g.batch = batch[:0]
	if len(g.queue) > 0 {
		next := g.queue[0]
		next.lead = true
		close(next.wake)
	} else {
		g.leading = false
	}
	g.mu.Unlock()
}

// commitGroup runs the writes of batch in one transaction. A lone write
// needs no savepoint: its failure rolls the transaction back.
func commitGroup(c *conn, batch []*pendingWrite) {
	if _, err := c.exec(qBegin); err != nil {
		failAll(batch, fmt.Errorf("beginning a transaction: %w", err))
		return
	}
	if len(batch) == 1 {
		w := batch[0]
		if runWrite(c, w); w.err != nil || w.panicked != nil {
			rollback(c, w)
			return
		}
	} else if err := runSavepoints(c, batch); err != nil {
		// The transaction is broken (SQLite rolled it back on an I/O or
		// full-disk error, say): nothing of the group can be kept.
		_, _ = c.exec(qRollback)
		failAll(batch, err)
		return
	}
	if _, err := c.exec(qCommit); err != nil {
		_, _ = c.exec(qRollback)
		failAll(batch, fmt.Errorf("committing: %w", err))
	}
}

// runSavepoints runs each write in its own savepoint, undoing the ones that
// fail. The error is for the transaction as a whole, not one write.
func runSavepoints(c *conn, batch []*pendingWrite) error {
	for _, w := range batch {
		if _, err := c.exec(qSavepoint); err != nil {
			return fmt.Errorf("starting a savepoint: %w", err)
		}
		runWrite(c, w)
		if w.err != nil || w.panicked != nil {
			if _, err := c.exec(qRollbackTo); err != nil {
				return fmt.Errorf("rolling back a failed write (%v): %w", w.err, err)
			}
		}
		if _, err := c.exec(qRelease); err != nil {
			return fmt.Errorf("releasing a savepoint: %w", err)
		}
	}
	return nil
}

// runWrite runs w's function, keeping a panic to raise again on its
// caller's goroutine rather than the leader's.
func runWrite(c *conn, w *pendingWrite) {
	defer func() {
		if r := recover(); r != nil {
			w.panicked = &writePanic{value: r, stack: debug.Stack()}
		}
	}()
	w.err = w.fn(c)
}

// rollback ends a lone write's failed transaction.
func rollback(c *conn, w *pendingWrite) {
	if _, err := c.exec(qRollback); err != nil && w.err != nil {
		w.err = fmt.Errorf("%w (and rolling back: %v)", w.err, err)
	}
}

// failAll gives err to every write of the batch that has no error of its
// own: none of them was committed.
func failAll(batch []*pendingWrite, err error) {
	for _, w := range batch {
		if w.err == nil && w.panicked == nil {
			w.err = err
		}
	}
}
