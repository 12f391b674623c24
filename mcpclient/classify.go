package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// The SDK reports its own transport conditions as JSON-RPC errors with
// these codes; they never come from the server.
const (
	codeClientClosing = -32003
	codeServerClosing = -32004
	// codeRejected marks a request the HTTP transport could not deliver,
	// or an answer it treats as transient; the session itself is fine.
	codeRejected = -32005
)

// rejectedByTransport matches the SDK's "rejected by transport" error,
// which compares by code.
var rejectedByTransport = &jsonrpc.Error{Code: codeRejected}

// peerError returns the JSON-RPC error the server answered with, if err
// carries one.
func peerError(err error) (*jsonrpc.Error, bool) {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return nil, false
	}
	switch we.Code {
	case codeClientClosing, codeServerClosing, codeRejected:
		return nil, false
	}
	return we, true
}

// notDelivered reports a call that certainly did not reach the tool, so
// that one resend on a fresh session is safe: the connection was already
// closed when the call was made, or the server no longer knows the session
// (404, or 400 from servers that answer an unknown session that way; a
// tool call's own errors come back with status 200).
func notDelivered(err error, status int) bool {
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, mcp.ErrSessionMissing) ||
		status == http.StatusBadRequest || status == http.StatusNotFound
}

// dialFailed reports a request that never left this machine: the
// connection could not be opened.
func dialFailed(err error) bool {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	return errors.As(err, &dnsErr) || (errors.As(err, &opErr) && opErr.Op == "dial") ||
		errors.Is(err, syscall.ECONNREFUSED)
}

// statusCode is the failure class of an HTTP status.
func statusCode(status int) failure.Code {
	return failure.Classify(&failure.Error{HTTPStatus: status})
}

// connectFailure classifies a failure while connecting or listing tools.
// Rule: the retry layer resends "for a tool a failure while connecting",
// a request that never reached the service, so Sent is false: no tool was
// called. The class is UNREACHABLE, TIMEOUT when ctx ran out, or that of
// the HTTP status the server refused the handshake with (401 REJECTED), or
// UPSTREAM_ERROR when the server answered with a JSON-RPC error.
func (c *conn) connectFailure(ctx context.Context, err error, status int) *failure.Error {
	fe := &failure.Error{
		Code:       failure.Unreachable,
		Message:    "connecting to MCP " + c.c.label(),
		Err:        c.redact(err),
		HTTPStatus: status,
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		fe.Code = failure.Timeout
	case errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled):
		fe.Code = failure.Unknown
	case status >= 400:
		fe.Code = statusCode(status)
	default:
		if _, ok := peerError(err); ok {
			// The server is up and answered, but refused the handshake
			// or the listing.
			fe.Code = failure.UpstreamError
		}
	}
	return fe
}

// callFailure classifies a tools/call that failed without an answer from
// the tool. drop reports a session that is broken and must be replaced.
func (c *conn) callFailure(ctx context.Context, tool string, err error, status int) (fe *failure.Error, drop bool) {
	fe = &failure.Error{
		Message:    fmt.Sprintf("calling tool %q on %s", tool, c.c.label()),
		Err:        c.redact(err),
		HTTPStatus: status,
		Sent:       true,
	}
	we, fromPeer := peerError(err)
	switch {
	case ctx.Err() != nil:
		// The SDK has told the server to cancel; the session is fine.
		fe.Code = failure.Unknown
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fe.Code = failure.Timeout
		}
		return fe, false
	case status >= 400:
		fe.Code = statusCode(status)
		return fe, !errors.Is(err, rejectedByTransport)
	case fromPeer:
		fe.Code = failure.UpstreamError
		fe.Message += fmt.Sprintf(": server answered error %d", we.Code)
		return fe, false
	case notDelivered(err, 0):
		// Even a fresh session was gone at once.
		fe.Code, fe.Sent = failure.Unreachable, false
		return fe, true
	case errors.Is(err, rejectedByTransport):
		// The HTTP request failed; only a failed dial proves it was not
		// sent. The session may well outlive a network hiccup.
		fe.Code, fe.Sent = networkCode(err), !dialFailed(err)
		return fe, false
	default:
		// The connection broke mid-call: the server crashed or the pipe
		// or socket closed. The call may have run.
		fe.Code = networkCode(err)
		return fe, true
	}
}

// networkCode is the class of a lost connection: TIMEOUT or UNREACHABLE
// as the cause says, INVALID_DATA for an answer that was not JSON, and
// UNREACHABLE when nothing more specific is known (EOF, closed pipe).
func networkCode(err error) failure.Code {
	switch code := failure.Classify(err); code {
	case failure.Timeout, failure.Unreachable, failure.InvalidData:
		return code
	default:
		return failure.Unreachable
	}
}

// redact returns err with the connector's credentials removed from its
// text, while errors.Is and errors.As still see the original chain. Rule:
// never put credentials in error messages.
func (c *conn) redact(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	clean := failure.RedactValues(text, c.secrets)
	if clean == text {
		return err
	}
	return &redactedError{err: err, text: clean}
}

// redactText removes the connector's credentials from server-provided text.
func (c *conn) redactText(s string) string { return failure.RedactValues(s, c.secrets) }

// redactedError shows a redacted text in place of its cause's.
type redactedError struct {
	err  error
	text string
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.err }
