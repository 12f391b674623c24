package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
)

// ClientKey is the capability under which a run's Services hold the
// workspace's model client. A run without it has no model: an llm node fails
// saying so.
var ClientKey = node.NewKey[Chatter]("language models")

// Chatter sends chat requests to a workspace's models. *Client is the one
// implementation; the server wraps it per workspace.
type Chatter interface {
	// Chat sends r; a Request with no Model is sent to the workspace's
	// default model.
	Chat(ctx context.Context, r Request) (Response, error)
}

// Message is one chat message.
type Message struct {
	Role    string // system, user or assistant
	Content string
}

// Request is one chat completion.
type Request struct {
	Model    string
	Messages []Message
	// Temperature, when set, is sent (0 included).
	Temperature *float64
	// MaxTokens caps the reply; 0 leaves the provider's default.
	MaxTokens int
	// Schema, when set, asks for a structured reply matching this JSON
	// Schema (response_format json_schema); the caller still validates it.
	Schema json.RawMessage
	// OnChunk, when set, streams the reply: it gets each piece of text as
	// it arrives, in order, on the calling goroutine.
	OnChunk func(text string)
}

// Response is what a chat completion returned, and how it got there.
type Response struct {
	Text      string
	Model     string
	Provider  string
	TokensIn  int
	TokensOut int
	// Fallbacks are the providers that failed before Provider answered
	// (or before the call gave up), in order.
	Fallbacks []Fallback
	// Latency is the time the answering provider took.
	Latency time.Duration
	// Cost is the tokens' price (Config.Prices), 0 for a model without one.
	Cost float64
}

// Fallback is one provider that could not answer: no error text, so a
// trace row can carry it.
type Fallback struct {
	Provider   string `json:"provider"`
	ErrorClass string `json:"errorClass"`
	HTTPStatus int    `json:"httpStatus,omitempty"`
}

// MaxReplyBytes bounds a reply, streamed or not: a provider that never stops
// fails the call rather than filling memory.
const MaxReplyBytes = 1 << 20

// Client sends requests to a workspace's providers. It is safe for
// concurrent use.
type Client struct {
	cfg     Config
	catalog map[string]bool
	clients []*openai.Client
	// Observe, when set, is told about each finished call (metrics).
	Observe func(Response, error)
	usage   Usage
	now     func() time.Time
}

// Options are a client's surroundings; the zero value keeps usage in
// memory and reads the real clock.
type Options struct {
	// Usage keeps the workspace's usage per day, for the budgets.
	Usage Usage
	// Now tells the time (which day's budget applies).
	Now func() time.Time
}

// New returns a client for cfg, whose requests go through hc (the guarded
// outbound client: a provider on a private address needs the operator's
// allowlist). cfg must pass Check.
func New(cfg Config, hc *http.Client, opts ...Options) (*Client, error) {
	if err := cfg.Check("modelProviders"); err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, catalog: map[string]bool{}, now: time.Now, usage: &MemoryUsage{}}
	for _, o := range opts {
		if o.Usage != nil {
			c.usage = o.Usage
		}
		if o.Now != nil {
			c.now = o.Now
		}
	}
	for _, m := range cfg.Catalog() {
		c.catalog[m] = true
	}
	for _, p := range cfg.Providers {
		oc := openai.DefaultConfig(p.APIKey)
		oc.BaseURL = p.BaseURL
		oc.HTTPClient = hc
		c.clients = append(c.clients, openai.NewClientWithConfig(oc))
	}
	return c, nil
}

// Config returns the client's configuration.
func (c *Client) Config() Config { return c.cfg }

// fallsBack lists the classes on which the next provider is tried (issue:
// "provider fallback in order on UNREACHABLE / RATE_LIMITED /
// UPSTREAM_ERROR / TIMEOUT").
func fallsBack(code failure.Code) bool {
	switch code {
	case failure.Unreachable, failure.RateLimited, failure.UpstreamError, failure.Timeout:
		return true
	}
	return false
}

// Chat sends r to each provider listing r.Model (the default model when
// empty), in order, until one answers. No model, a model outside the
// catalog, or a spent daily budget is REJECTED before any request. A provider that fails with UNREACHABLE, RATE_LIMITED,
// UPSTREAM_ERROR or TIMEOUT gives way to the next; any other failure, or a
// stream that already published text, ends the call. The error is a
// *failure.Error whose message never holds an API key.
func (c *Client) Chat(ctx context.Context, r Request) (resp Response, err error) {
	defer func() {
		if c.Observe != nil {
			c.Observe(resp, err)
		}
	}()
	if r.Model == "" {
		r.Model = c.cfg.DefaultModel
	}
	resp.Model = r.Model
	if r.Model == "" {
		return resp, &failure.Error{Code: failure.Rejected, Message: "no model to call: set the agent's default model, the node's modelOverride or the workspace's defaultModel"}
	}
	if !c.catalog[r.Model] {
		return resp, &failure.Error{Code: failure.Rejected, Message: fmt.Sprintf("model %q is not allowed for this workspace: it is not in the catalog", r.Model)}
	}
	day := Day(c.now())
	if err := c.checkBudget(ctx, day); err != nil {
		return resp, err
	}
	var last error
	for i, p := range c.cfg.Providers {
		if !lists(p, r.Model) {
			continue
		}
		started := time.Now()
		out, published, err := c.call(ctx, i, r)
		if err == nil {
			out.Fallbacks, out.Provider, out.Model, out.Latency = resp.Fallbacks, p.Name, r.Model, time.Since(started)
			c.record(ctx, day, &out)
			return out, nil
		}
		err = redact(err, p)
		code := failure.Classify(err)
		status := 0
		var fe *failure.Error
		if errors.As(err, &fe) {
			status = fe.HTTPStatus
		}
		resp.Fallbacks = append(resp.Fallbacks, Fallback{Provider: p.Name, ErrorClass: string(code), HTTPStatus: status})
		last = err
		if published || !fallsBack(code) || ctx.Err() != nil {
			break
		}
	}
	if last == nil {
		return resp, &failure.Error{Code: failure.Rejected, Message: fmt.Sprintf("model %q: no provider lists it", r.Model)}
	}
	// The last entry is the failure itself, not a fallback.
	resp.Fallbacks = resp.Fallbacks[:len(resp.Fallbacks)-1]
	return resp, last
}

func lists(p Provider, model string) bool {
	for _, m := range p.Models {
		if m == model {
			return true
		}
	}
	return false
}

// redact labels err with the provider and takes its API key out of the text.
func redact(err error, p Provider) error {
	out := &failure.Error{Code: failure.Classify(err), Message: failure.RedactValues("provider "+p.Name+": "+err.Error(), []string{p.APIKey})}
	var fe *failure.Error
	if errors.As(err, &fe) {
		out.HTTPStatus, out.Sent = fe.HTTPStatus, fe.Sent
	}
	return out
}
