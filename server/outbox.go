package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/clock"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/retry"
	"github.com/wetel/wetel/store"
)

// Async webhook delivery (a queued request survives a restart).
const (
	outboxEvery       = 250 * time.Millisecond
	outboxLease       = 45 * time.Second // longer than the 30 s ceiling of one request
	outboxMaxAttempts = 3
	// outboxWorkers requests are sent at once, at most outboxPerWorkspace
	// of them for one workspace, so a workspace whose partner is slow
	// delays its own webhooks, not everyone's.
	outboxWorkers      = 8
	outboxPerWorkspace = 2
	// outboxRetryAfter is the wait after a first attempt that never
	// reached the service; it doubles after each further one.
	outboxRetryAfter = 2 * time.Second
	outboxMaxWait    = time.Minute
)

type wsOutbox struct {
	c  *callouts
	ws int64
}

func outboxAAD(ws int64) string { return fmt.Sprintf("ws:%d/outbound:", ws) }

// Enqueue stores the request in the durable queue, headers sealed (they
// may carry the webhook's credentials), for the delivery worker.
func (o wsOutbox) Enqueue(ctx context.Context, r callout.OutboundRequest) error {
	headers, err := o.c.box.SealMap(r.Headers, outboxAAD(o.ws))
	if err != nil {
		return err
	}
	// Stamped by the server's clock, which is what delivery claims by.
	_, err = o.c.store.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: o.ws, RunID: r.RunID, NodeID: r.NodeID,
		Method: r.Method, URL: r.URL, Headers: headers, Body: r.Body, CreatedAt: o.c.clock.Now()})
	if err == nil {
		// A delivery pass in progress claims it as soon as a slot is
		// free, rather than at the next pass.
		select {
		case o.c.queued <- struct{}{}:
		default:
		}
	}
	return err
}

// deliver runs until ctx ends, sending queued async webhooks. A request
// is claimed with a lease, so across replicas each is sent by one. The
// seed's webhook never retries a request the service received; one that
// never reached it (a refused connection, a DNS failure) is tried again up
// to outboxMaxAttempts times, a few seconds apart. The next poll is
// outboxEvery after a pass ends, so a slow pass never stacks up ticks.
func (s *Server) deliver(ctx context.Context) {
	t := s.clock.NewTimer(outboxEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		s.deliverDue(ctx)
		t.Reset(outboxEvery)
	}
}

// deliverDue sends the queued requests that are due, up to outboxWorkers at
// once and outboxPerWorkspace for one workspace, and returns when none is
// left to claim and none is in flight. Each request is claimed just before
// it is sent, one at a time: a crash leaves only the requests in flight
// leased, never a batch waiting behind them.
func (s *Server) deliverDue(ctx context.Context) {
	done := make(chan int64)
	busy := map[int64]int{} // in flight per workspace
	inFlight := 0
	for {
		for inFlight < outboxWorkers && ctx.Err() == nil {
			r, ok := s.claimOne(ctx, busy)
			if !ok {
				break
			}
			inFlight++
			busy[r.WorkspaceID]++
			go func() {
				s.deliverOne(ctx, r)
				done <- r.WorkspaceID
			}()
		}
		if inFlight == 0 {
			return
		}
		select {
		case ws := <-done:
			inFlight--
			if busy[ws]--; busy[ws] == 0 {
				delete(busy, ws)
			}
		case <-s.callouts.queued:
		}
	}
}

// claimOne leases the next due request of a workspace with a free slot.
func (s *Server) claimOne(ctx context.Context, busy map[int64]int) (store.OutboundRequest, bool) {
	var full []int64
	for ws, n := range busy {
		if n >= outboxPerWorkspace {
			full = append(full, ws)
		}
	}
	reqs, err := s.store.ClaimOutbound(ctx, s.clock.Now(), outboxLease, 1, full)
	if err != nil {
		if ctx.Err() == nil {
			s.log.WarnContext(ctx, "claiming async webhooks", "err", err)
		}
		return store.OutboundRequest{}, false
	}
	if len(reqs) == 0 {
		return store.OutboundRequest{}, false
	}
	return reqs[0], true
}

func (s *Server) deliverOne(ctx context.Context, r store.OutboundRequest) {
	if r.Attempts > 1 && r.ErrorClass == "" {
		// Claimed before, and its attempt never recorded: the worker that
		// sent it stopped (a crash, a kill) while the request was in
		// flight, so it may have reached the service. Seed 001: only a
		// request that is idempotent is sent again; any other is recorded
		// as of unknown outcome and left alone.
		headers, _ := s.callouts.box.OpenMap(r.Headers, outboxAAD(r.WorkspaceID))
		if !(retry.Call{Method: r.Method, Header: headerValues(headers)}).Idempotent() {
			s.log.WarnContext(ctx, "async webhook outcome unknown: the server stopped while sending it; not sent again, since it is not idempotent",
				"node", r.NodeID, "run", r.RunID, "attempts", r.Attempts-1)
			if err := s.store.FinishOutbound(ctx, r.ID, store.OutboundFailed, string(failure.Unknown), 0, nil); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "recording an async webhook", "id", r.ID, "err", err)
			}
			return
		}
	}
	status, err := s.send(ctx, r)
	class := ""
	if err != nil {
		class = string(failure.Classify(err))
	}
	var fe *failure.Error
	notSent := err != nil && status == 0 && (!errors.As(err, &fe) || !fe.Sent) && !failure.IsRefused(err)
	switch {
	case err == nil:
		err = s.store.FinishOutbound(ctx, r.ID, store.OutboundSent, "", status, nil)
	case notSent && r.Attempts < outboxMaxAttempts:
		// Attempts counts this one, so the first retry waits outboxRetryAfter.
		next := s.clock.Now().Add(clock.Backoff(outboxRetryAfter, outboxMaxWait, r.Attempts-1))
		err = s.store.FinishOutbound(ctx, r.ID, store.OutboundPending, class, 0, &next)
	default:
		s.log.WarnContext(ctx, "async webhook failed", "node", r.NodeID, "run", r.RunID, "errorClass", class, "httpStatus", status)
		err = s.store.FinishOutbound(ctx, r.ID, store.OutboundFailed, class, status, nil)
	}
	if err != nil && ctx.Err() == nil {
		s.log.WarnContext(ctx, "recording an async webhook", "id", r.ID, "err", err)
	}
}

// send makes the request; a non-2xx answer is a failure with its status.
func (s *Server) send(ctx context.Context, r store.OutboundRequest) (int, error) {
	headers, err := s.callouts.box.OpenMap(r.Headers, outboxAAD(r.WorkspaceID))
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return 0, &failure.Error{Code: failure.InvalidData, Message: "async webhook: bad request"}
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if len(r.Body) > 0 && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := s.callouts.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode >= 300 {
		return resp.StatusCode, &failure.Error{HTTPStatus: resp.StatusCode, Sent: true}
	}
	return resp.StatusCode, nil
}

// eventRetention is how long the store keeps a session's events for
// replay: well past the hour a reconnecting client is promised.
const eventRetention = 24 * time.Hour

// pruneEvery is how often stored events are pruned.
const pruneEvery = 10 * time.Minute

// pruneEvents deletes stored events past their retention every few
// minutes, so the event log does not grow without end. The first pass is
// at start; each next one pruneEvery after a pass ends.
func (s *Server) pruneEvents(ctx context.Context) {
	t := s.clock.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		n, err := s.store.PruneEvents(ctx, s.clock.Now().Add(-eventRetention))
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.WarnContext(ctx, "pruning events", "err", err)
		case n > 0:
			s.log.InfoContext(ctx, "pruned events", "events", n)
		}
		t.Reset(pruneEvery)
	}
}

// headerValues is headers as retry's safe-resend rule reads them.
func headerValues(h map[string]string) map[string][]string {
	out := make(map[string][]string, len(h))
	for k, v := range h {
		out[k] = []string{v}
	}
	return out
}
