package outbound

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/wetel/wetel/failure"
)

// MaxRedirects is how many redirects one call follows. Rule: "Limit
// redirects to 5."
const MaxRedirects = 5

// checkRedirect judges each redirect before it is followed. Rule: "again on
// every redirect (CheckRedirect re-validates scheme and host; the dial check
// then covers the resolved address)".
//
// A redirect from https to http is refused: it would send the request,
// headers included, in clear text to a URL the author never wrote.
func (g *guard) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		// The service answered every time, so the call was sent; a loop of
		// redirects is the service refusing to answer, not a network fault.
		return &failure.Error{
			Code:    failure.Rejected,
			Message: fmt.Sprintf("outbound: stopped after %d redirects", MaxRedirects),
			Sent:    true,
		}
	}
	if prev := via[len(via)-1]; prev.URL.Scheme == "https" && req.URL.Scheme == "http" {
		re := &RefusedError{
			URL:    req.URL.Redacted(),
			Host:   req.URL.Hostname(),
			Reason: "a redirect from https to http would send the request unencrypted",
		}
		g.report(req.Context(), re, req.URL)
		return reject(re)
	}
	if _, re := g.checkURL(req.URL); re != nil {
		g.report(req.Context(), re, req.URL)
		return reject(re)
	}
	return nil
}

// guardedTransport judges every request's URL before the HTTP transport
// sees it: the first request of a call, each redirect, and the requests of
// callers that took the *http.Client from HTTP and may have replaced its
// CheckRedirect.
type guardedTransport struct {
	guard     *guard
	base      *http.Transport
	propagate func(context.Context, http.Header)
}

// RoundTrip refuses a request whose URL the guard refuses, and sends the
// others through the guarded transport.
func (t *guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil {
		closeBody(req)
		return nil, errors.New("outbound: request has no URL")
	}
	if _, re := t.guard.checkURL(req.URL); re != nil {
		closeBody(req)
		t.guard.report(req.Context(), re, req.URL)
		return nil, reject(re)
	}
	if t.propagate != nil {
		// A RoundTripper must not change the caller's request.
		req = req.Clone(req.Context())
		t.propagate(req.Context(), req.Header)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		// A refusal while connecting: the name resolved inward.
		if re, ok := errors.AsType[*RefusedError](err); ok {
			t.guard.report(req.Context(), re, req.URL)
		}
	}
	return resp, err
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// pool.
func (t *guardedTransport) CloseIdleConnections() {
	t.base.CloseIdleConnections()
}

// closeBody honours http.RoundTripper's contract that RoundTrip closes the
// request body, even when it returns an error.
func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}
