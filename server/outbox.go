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
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/store"
)

// Async webhook delivery (a queued request survives a restart).
const (
	outboxEvery       = 250 * time.Millisecond
	outboxLease       = 45 * time.Second // longer than the 30 s ceiling of one request
	outboxMaxAttempts = 3
	outboxBatch       = 32
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
	_, err = o.c.store.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: o.ws, RunID: r.RunID, NodeID: r.NodeID,
		Method: r.Method, URL: r.URL, Headers: headers, Body: r.Body})
	return err
}

// deliver runs until ctx ends, sending queued async webhooks. A request
// is claimed with a lease, so across replicas each is sent by one. The
// seed's webhook never retries a request the service received; one that
// never reached it (a refused connection, a DNS failure) is tried again up
// to outboxMaxAttempts times, a few seconds apart.
func (s *Server) deliver(ctx context.Context) {
	t := time.NewTicker(outboxEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		reqs, err := s.store.ClaimOutbound(ctx, time.Now(), outboxLease, outboxBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.log.WarnContext(ctx, "claiming async webhooks", "err", err)
			}
			continue
		}
		for _, r := range reqs {
			s.deliverOne(ctx, r)
		}
	}
}

func (s *Server) deliverOne(ctx context.Context, r store.OutboundRequest) {
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
		next := time.Now().Add(time.Duration(r.Attempts) * 2 * time.Second)
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

// pruneEvents deletes stored events past their retention every few
// minutes, so the event log does not grow without end.
func (s *Server) pruneEvents(ctx context.Context) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		n, err := s.store.PruneEvents(ctx, time.Now().Add(-eventRetention))
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.WarnContext(ctx, "pruning events", "err", err)
		case n > 0:
			s.log.InfoContext(ctx, "pruned events", "events", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
