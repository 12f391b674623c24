package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"
)

// Resolver looks host names up. *net.Resolver satisfies it; tests inject
// their own so that no test depends on real DNS.
type Resolver interface {
	// LookupNetIP returns the addresses of host; network is "ip", "ip4" or
	// "ip6".
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DefaultDialTimeout bounds a connection attempt when Config.DialTimeout is
// zero. Whole-request deadlines are the caller's, through the context.
const DefaultDialTimeout = 10 * time.Second

// checkTimeout bounds the name lookup of Check.
const checkTimeout = 5 * time.Second

// Config configures a Client. The zero Config is valid: no allowlist, the
// system resolver, DefaultDialTimeout.
type Config struct {
	// Allow opens internal services; see Allowlist.
	Allow Allowlist
	// Resolver looks host names up; nil means net.DefaultResolver.
	Resolver Resolver
	// DialTimeout bounds one connection attempt; 0 means
	// DefaultDialTimeout.
	DialTimeout time.Duration
	// Transport, when set, supplies the HTTP settings (TLS config, pool
	// sizes, timeouts). It is cloned, and its Proxy, DialContext,
	// DialTLSContext, Dial and DialTLS are replaced: each of them could
	// open a connection the guard never sees.
	Transport *http.Transport
	// OnRefuse, when set, hears of every call the guard refuses, once per
	// call, on the caller's goroutine (for the server's log): the first
	// request, a redirect, a connection, and CheckContext. It must not
	// block.
	OnRefuse func(ctx context.Context, e *RefusedError)
	// Propagate, when set, writes trace context headers (W3C traceparent)
	// for the request's context into a copy of each request's headers
	// before it is sent: the first request and every redirect.
	Propagate func(ctx context.Context, h http.Header)
}

// Client is the HTTP client for every outbound call of the engine. It is
// safe for concurrent use, and keeps connections alive between calls.
type Client struct {
	guard     *guard
	transport *http.Transport
	http      *http.Client
}

// New returns a Client with cfg's settings, or an error if cfg is invalid.
func New(cfg Config) (*Client, error) {
	if cfg.DialTimeout < 0 {
		return nil, fmt.Errorf("outbound: dial timeout %v is negative", cfg.DialTimeout)
	}
	if cfg.DialTimeout == 0 {
		cfg.DialTimeout = DefaultDialTimeout
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	g := &guard{
		allow:    cfg.Allow,
		resolver: cfg.Resolver,
		onRefuse: cfg.OnRefuse,
		dialer:   &net.Dialer{Timeout: cfg.DialTimeout, KeepAlive: 30 * time.Second, ControlContext: controlApproved},
	}
	t := defaultTransport()
	if cfg.Transport != nil {
		t = cfg.Transport.Clone()
	}
	// Rule: "Disable proxies from the environment (Proxy: nil) — a proxy
	// would bypass the dial check."
	t.Proxy = nil
	t.DialContext = g.dialContext
	t.DialTLSContext = nil
	// Dial and DialTLS are deprecated but still honoured when set, and
	// DialTLS wins over DialContext for https.
	t.Dial = nil    //lint:ignore SA1019 cleared so a caller's dialer cannot bypass the guard
	t.DialTLS = nil //lint:ignore SA1019 as above
	// A custom DialContext turns HTTP/2 off unless asked for.
	t.ForceAttemptHTTP2 = true
	return &Client{
		guard:     g,
		transport: t,
		http:      &http.Client{Transport: &guardedTransport{guard: g, base: t, propagate: cfg.Propagate}, CheckRedirect: g.checkRedirect},
	}, nil
}

// defaultTransport has the settings of http.DefaultTransport, written out
// so that another package replacing that global cannot change them.
func defaultTransport() *http.Transport {
	return &http.Transport{
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: 1 * time.Second,
	}
}

// HTTP returns an *http.Client that makes guarded calls, for libraries that
// take one (the MCP SDK's Streamable HTTP transport). Each call returns a
// fresh copy sharing the guarded transport, so a caller that changes its
// copy (a timeout, a jar) changes no one else's. A refusal arrives wrapped
// in a *url.Error; failure.Classify and errors.As see through it.
func (c *Client) HTTP() *http.Client {
	cp := *c.http
	return &cp
}

// Do sends req through the guard, following at most MaxRedirects
// redirects, each of them checked again. It returns what http.Client.Do
// returns, except that a refusal is returned as the *failure.Error itself
// (Code failure.Unreachable, Sent false, Refused true), its message naming the refused URL.
// Deadlines are the caller's: set them on req's context.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		err = explain(err)
	}
	return resp, err
}

// explain lifts a refusal out of the *url.Error the HTTP client wraps it
// in, filling in the URL when the refusal happened while connecting.
func explain(err error) error {
	re, ok := errors.AsType[*RefusedError](err)
	if !ok {
		return err
	}
	cp := *re
	if ue, ok := errors.AsType[*url.Error](err); ok && cp.URL == "" {
		cp.URL = ue.URL
	}
	return reject(&cp)
}

// Check tells whether rawURL would be refused, for use when a workflow or
// an action is saved, so that its author hears it early. It judges the
// scheme and the host, and looks a host name up to judge its addresses. A
// name that does not resolve passes: it may resolve where the engine runs,
// and every call is judged again when it connects.
func (c *Client) Check(rawURL string) error {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	return c.CheckContext(ctx, rawURL)
}

// CheckContext is Check with the caller's context bounding the lookup.
func (c *Client) CheckContext(ctx context.Context, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		reason := "it is not a valid URL"
		if ue, ok := errors.AsType[*url.Error](err); ok {
			reason += " (" + ue.Err.Error() + ")"
		}
		re := &RefusedError{URL: rawURL, Reason: reason}
		c.guard.report(ctx, re, nil)
		return reject(re)
	}
	h, re := c.guard.checkURL(u)
	if re != nil {
		c.guard.report(ctx, re, u)
		return reject(re)
	}
	if h.addr.IsValid() {
		return nil
	}
	if _, err := c.guard.approve(ctx, "tcp", h); err != nil {
		if re, ok := errors.AsType[*RefusedError](err); ok {
			re.URL = u.Redacted()
			c.guard.report(ctx, re, u)
			return reject(re)
		}
	}
	return nil
}

// CloseIdleConnections closes the connections kept alive between calls.
func (c *Client) CloseIdleConnections() {
	c.transport.CloseIdleConnections()
}
