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
	"github.com/wetel/wetel/store"
)

// Async webhook delivery (a queued request survives a restart).
const (
	outboxEvery       = 250 * time.Millisecond
	outboxLease       = 45 * time.Second // longer than the 30 s ceiling of one request
	outboxMaxAttempts = 3
	outboxBatch       = 32
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

// deliverDue sends the queued requests that are due, one batch.
func (s *Server) deliverDue(ctx context.Context) {
	reqs, err := s.store.ClaimOutbound(ctx, s.clock.Now(), outboxLease, outboxBatch)
	if err != nil {
		if ctx.Err() == nil {
			s.log.WarnContext(ctx, "claiming async webhooks", "err", err)
		}
		return
	}
	for _, r := range reqs {
		s.deliverOne(ctx, r)
	}
}

func (s *Server) deliverOne(ctx context.Context, r store.OutboundRequest) {
	status, err := s.send(ctx, r)
	class := ""
	if err != nil {
		class = string(failure.Classify(err))
	}
	var fe *failure.Error
	notSent := err != nil && status == 0 && (!errors.As(err, &fe) || !fe.Sent) && class != string(failure.Rejected)
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
