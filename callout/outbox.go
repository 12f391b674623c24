package callout

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/outbound"
)

// ErrOutboxClosed is returned by Enqueue on a closed MemoryOutbox.
var ErrOutboxClosed = errors.New("the outbox is closed")

// MaxOutboxDeliveries bounds how many async requests a MemoryOutbox sends
// at the same time; more wait their turn.
const MaxOutboxDeliveries = 16

// Delivery is what became of one async request, for logs and tests: the
// status of the answer, or the class of the failure. No body, no headers.
type Delivery struct {
	NodeID     string
	HTTPStatus int
	ErrorClass string
}

// MemoryOutbox sends async webhook requests in the background, from this
// process, once each (seed: an async webhook does not retry). Nothing
// survives the process: it is for offline runs and embedding; a server
// uses the store's durable queue.
type MemoryOutbox struct {
	client *outbound.Client
	log    *slog.Logger
	// Delivered, when set before the first Enqueue, is called after each
	// request was sent or failed.
	Delivered func(Delivery)

	ctx    context.Context
	cancel context.CancelFunc
	slots  chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	closed bool
}

// NewMemoryOutbox returns an outbox that sends through c and logs each
// delivery to log (nil discards), never with headers or bodies.
func NewMemoryOutbox(c *outbound.Client, log *slog.Logger) *MemoryOutbox {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &MemoryOutbox{client: c, log: log, ctx: ctx, cancel: cancel, slots: make(chan struct{}, MaxOutboxDeliveries)}
}

// Enqueue starts sending r in the background and returns at once.
func (o *MemoryOutbox) Enqueue(_ context.Context, r OutboundRequest) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrOutboxClosed
	}
	o.wg.Add(1)
	go o.deliver(r)
	return nil
}

func (o *MemoryOutbox) deliver(r OutboundRequest) {
	defer o.wg.Done()
	select {
	case o.slots <- struct{}{}:
		defer func() { <-o.slots }()
	case <-o.ctx.Done():
		o.report(r, 0, context.Canceled)
		return
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	ctx, cancel := context.WithTimeout(o.ctx, timeout)
	defer cancel()
	status, err := o.send(ctx, r)
	o.report(r, status, err)
}

func (o *MemoryOutbox) send(ctx context.Context, r OutboundRequest) (int, error) {
	req := HTTPRequest{Method: r.Method, URL: r.URL, Header: headerOf(r.Headers), Body: r.Body}
	ans, err := SendHTTP(ctx, o.client, req, true, time.Now)
	if err != nil {
		var fe *failure.Error
		if errors.As(err, &fe) && fe.HTTPStatus != 0 {
			return fe.HTTPStatus, err
		}
		return 0, err
	}
	status, _ := ans.Value["status"].(int)
	return status, nil
}

func (o *MemoryOutbox) report(r OutboundRequest, status int, err error) {
	d := Delivery{NodeID: r.NodeID, HTTPStatus: status}
	if err != nil {
		d.ErrorClass = string(failure.Classify(err))
		// The URL's path and host say which call it was; the error text
		// may quote credentials, so only its redacted form is logged.
		msg := RedactError(err, "", CallSecrets(headerOf(r.Headers), r.URL)).Error()
		o.log.Warn("async webhook failed", "run", r.RunID, "node", r.NodeID, "errorClass", d.ErrorClass, "status", status, "error", msg)
	} else {
		o.log.Info("async webhook delivered", "run", r.RunID, "node", r.NodeID, "status", status)
	}
	if o.Delivered != nil {
		o.Delivered(d)
	}
}

// Close stops taking requests and waits for those in flight until ctx is
// done, then cancels what is left.
func (o *MemoryOutbox) Close(ctx context.Context) error {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	done := make(chan struct{})
	go func() { o.wg.Wait(); close(done) }()
	select {
	case <-done:
		o.cancel()
		return nil
	case <-ctx.Done():
		o.cancel()
		<-done
		return ctx.Err()
	}
}

func headerOf(m map[string]string) http.Header {
	h := make(http.Header, len(m))
	for k, v := range m {
		h.Set(k, v)
	}
	return h
}
