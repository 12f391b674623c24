package events

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/wetel/wetel/clock"
)

const (
	// batchSize is the most events one Log.Append carries; a full batch is
	// written without waiting for FlushEvery.
	batchSize = 256
	// maxBackoff caps the wait between retries while the Log fails.
	maxBackoff = 10 * time.Second
)

// queued is an event waiting for the Log, with its session so the
// session's pending and persisted counts can be kept.
type queued struct {
	ev   Event
	sess *session
}

// persister writes events to the Log in publish order, in batches, off the
// publishers' path.
type persister struct {
	log    Log
	every  time.Duration
	clock  clock.Clock
	max    int
	logger *slog.Logger
	stats  *counters

	mu       sync.Mutex // guards queue and dropping
	queue    []queued
	dropping bool // a drop was logged since the last successful write
	wake     chan struct{}

	writeMu  sync.Mutex // serialises writes so batches reach the Log in order
	inflight []queued   // a batch taken from the queue, kept until written
}

func newPersister(opts Options, stats *counters) *persister {
	return &persister{
		log:    opts.Log,
		every:  opts.FlushEvery,
		clock:  opts.Clock,
		max:    opts.MaxQueued,
		logger: opts.Logger,
		stats:  stats,
		wake:   make(chan struct{}, 1),
	}
}

// enqueue queues an event without ever blocking: when the queue is full the
// oldest event is dropped for durability only (the ring still serves it).
func (p *persister) enqueue(ctx context.Context, q queued) {
	p.mu.Lock()
	if len(p.queue) >= p.max {
		old := p.queue[0]
		p.queue[0] = queued{}
		p.queue = p.queue[1:]
		old.sess.pending.Add(-1)
		p.stats.dropped.Add(1)
		if !p.dropping {
			p.dropping = true
			p.logger.WarnContext(ctx, "events: log queue full, dropping the oldest unstored events",
				"queued", len(p.queue), "workspaceId", old.ev.WorkspaceID, "sessionId", old.ev.SessionID, "seq", old.ev.Seq)
		}
	}
	p.queue = append(p.queue, q)
	full := len(p.queue) >= batchSize
	p.mu.Unlock()
	if full {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

func (p *persister) queued() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// take removes up to n events from the head of the queue.
func (p *persister) take(n int) []queued {
	p.mu.Lock()
	defer p.mu.Unlock()
	n = min(n, len(p.queue))
	batch := make([]queued, n)
	copy(batch, p.queue)
	clear(p.queue[:n])
	p.queue = p.queue[n:]
	if len(p.queue) == 0 {
		p.queue = nil // release the backing array
	}
	return batch
}

// drain writes what is queued when it is called, batch by batch. It stops
// there rather than at an empty queue, so a steady stream of publishes
// cannot keep a Flush from returning. A failed batch stays in inflight and
// is the first written next time, so order holds across retries.
func (p *persister) drain(ctx context.Context) error {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	budget := len(p.inflight) + p.queued()
	for budget > 0 {
		if len(p.inflight) == 0 {
			p.inflight = p.take(batchSize)
		}
		if len(p.inflight) == 0 {
			return nil
		}
		if err := p.write(ctx, p.inflight); err != nil {
			return err
		}
		budget -= len(p.inflight)
		p.inflight = nil
	}
	return nil
}

func (p *persister) write(ctx context.Context, batch []queued) error {
	evs := make([]Event, len(batch))
	for i, q := range batch {
		evs[i] = q.ev
	}
	if err := p.log.Append(ctx, evs); err != nil {
		return err
	}
	for _, q := range batch {
		// Batches are written in publish order, so a session's seqs only grow.
		q.sess.persisted.Store(q.ev.Seq)
		q.sess.pending.Add(-1)
	}
	p.stats.persisted.Add(uint64(len(batch)))
	p.mu.Lock()
	p.dropping = false
	p.mu.Unlock()
	return nil
}

// run writes every FlushEvery, or as soon as a batch is full, until ctx
// ends. While the Log fails it backs off, and a full batch does not cut the
// wait short, so a failing store is not hammered.
func (p *persister) run(ctx context.Context) {
	timer := p.clock.NewTimer(p.every)
	defer timer.Stop()
	failures := 0
	for {
		wake := p.wake
		if failures > 0 {
			wake = nil
		}
		select {
		case <-ctx.Done():
			return
		case <-timer.C():
		case <-wake:
			// Disarmed while the batch is written, as after a tick, so a
			// test on a fake clock sees a pass is over when it is re-armed.
			timer.Stop()
		}
		delay := p.every
		if err := p.drain(ctx); err != nil && ctx.Err() == nil {
			failures++
			delay = clock.Backoff(p.every, maxBackoff, failures)
			p.logger.WarnContext(ctx, "events: storing events failed, will retry",
				"err", err, "attempt", failures, "retryIn", delay, "queued", p.queued())
		} else {
			failures = 0
		}
		timer.Reset(delay)
	}
}
