package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// maxErrorText bounds how much of a tool's own error text a message
// quotes; the engine bounds stored messages again, but logs see it first.
const maxErrorText = 1024

// Call calls a tool of a registered connector and returns its result. The
// context bounds the whole call, connecting included: the tool node's
// timeoutMs comes through it.
//
// Every error is a *failure.Error:
//   - INVALID_DATA, Sent false: MCP schema drift found before sending,
//     the tool missing from the cached list or args not matching its
//     cached input schema;
//   - INVALID_DATA, Sent true: drift found by the server's answer, an
//     "unknown tool" or "invalid params" JSON-RPC error, or a tool error
//     while the server's own list no longer matches the cached one;
//   - UPSTREAM_ERROR, Sent true: the tool answered with isError, or the
//     server with another JSON-RPC error; for isError the Result is
//     returned alongside the error;
//   - UNREACHABLE or TIMEOUT (or the class of an HTTP status), Sent false:
//     a failure while connecting, so a resend is safe;
//   - UNREACHABLE or TIMEOUT, Sent true: the connection broke or ctx ran
//     out after the call was sent, so the tool may have run.
func (p *Pool) Call(ctx context.Context, connectorID int, toolName string, args map[string]any) (Result, error) {
	cn, err := p.conn(connectorID)
	if err != nil {
		return Result{}, err
	}
	if args == nil {
		args = map[string]any{}
	}
	spec, err := cn.check(ctx, toolName, args)
	if err != nil {
		return Result{}, err
	}
	return cn.call(ctx, spec, args)
}

// check finds the tool in the cached list and validates args against its
// cached input schema. Rule: MCP schema drift is INVALID_DATA, found here
// without calling the server.
func (c *conn) check(ctx context.Context, name string, args map[string]any) (*toolSpec, error) {
	cat := c.cat.Load()
	if cat == nil {
		// Registration could not list the tools; complete it now.
		var err error
		if cat, err = c.refresh(ctx); err != nil {
			return nil, err
		}
	}
	spec, ok := cat.byName[name]
	if !ok {
		return nil, drift(false, "MCP schema drift: tool %q is not offered by %s", name, c.c.label())
	}
	if spec.schema == nil {
		return spec, nil
	}
	violation, err := checkArgs(spec.schema, args)
	if err != nil {
		return nil, &failure.Error{Code: failure.InvalidData, Message: fmt.Sprintf("arguments for tool %q", name), Err: err}
	}
	if violation != "" {
		return nil, drift(false, "MCP schema drift: arguments for tool %q no longer match its input schema: %s", name, violation)
	}
	return spec, nil
}

// call sends tools/call, resending once on a fresh session when the call
// certainly did not reach the tool (see notDelivered).
func (c *conn) call(ctx context.Context, spec *toolSpec, args map[string]any) (Result, error) {
	for attempt := 0; ; attempt++ {
		l, err := c.session(ctx)
		if err != nil {
			return Result{}, err
		}
		callCtx, rec := withStatus(ctx)
		res, err := l.sess.CallTool(callCtx, &mcp.CallToolParams{Name: spec.Name, Arguments: args})
		if err == nil {
			return c.answer(ctx, l, spec, res)
		}
		status := rec.get()
		if attempt == 0 && ctx.Err() == nil && notDelivered(err, status) {
			c.pool.log.InfoContext(ctx, "mcp session is gone; reconnecting",
				"connector", c.c.ID, "name", c.c.Name, "tool", spec.Name, "status", status)
			c.forget(l)
			continue
		}
		if we, ok := peerError(err); ok && ctx.Err() == nil &&
			(we.Code == jsonrpc.CodeInvalidParams || we.Code == jsonrpc.CodeMethodNotFound) {
			return Result{}, c.rejected(ctx, l, spec, we)
		}
		fe, drop := c.callFailure(ctx, spec.Name, err, status)
		if drop {
			c.forget(l)
		}
		return Result{}, fe
	}
}

// answer turns a tool result into a Result, and a tool error into an
// UPSTREAM_ERROR: the tool ran and failed on the service's side, as an
// HTTP 5xx would, and a resend is only made under a retry policy.
func (c *conn) answer(ctx context.Context, l *live, spec *toolSpec, res *mcp.CallToolResult) (Result, error) {
	r := toResult(res)
	if !r.IsError {
		return r, nil
	}
	// A tool that fails may fail because its schema changed under us.
	if fe := c.driftSince(ctx, l, spec); fe != nil {
		fe.Err = errors.New(c.redactText(clip(r.Text)))
		return r, fe
	}
	return r, &failure.Error{
		Code:    failure.UpstreamError,
		Message: fmt.Sprintf("tool %q on %s reported an error: %s", spec.Name, c.c.label(), c.redactText(clip(r.Text))),
		Sent:    true,
	}
}

// rejected classifies a JSON-RPC "invalid params" or "method not found"
// answer to tools/call. Rule: a server that no longer takes the call as
// registered is MCP schema drift, INVALID_DATA.
func (c *conn) rejected(ctx context.Context, l *live, spec *toolSpec, we *jsonrpc.Error) error {
	if fe := c.driftSince(ctx, l, spec); fe != nil {
		fe.Err = c.redact(we)
		return fe
	}
	return drift(true, "MCP schema drift: %s rejected the call to tool %q: %s",
		c.c.label(), spec.Name, c.redactText(clip(we.Message)))
}

// driftSince lists the server's tools again and reports how the tool
// differs from the cached list, or nil when it does not (or the list
// cannot be had: then the original error stands).
func (c *conn) driftSince(ctx context.Context, l *live, spec *toolSpec) *failure.Error {
	tools, err := listTools(ctx, l.sess)
	if err != nil {
		return nil
	}
	for _, t := range tools {
		if t.Name != spec.Name {
			continue
		}
		if sameSchema(t.InputSchema, spec.InputSchema) {
			return nil
		}
		return drift(true, "MCP schema drift: the input schema of tool %q on %s changed since registration", spec.Name, c.c.label())
	}
	return drift(true, "MCP schema drift: tool %q is no longer offered by %s", spec.Name, c.c.label())
}

func drift(sent bool, format string, a ...any) *failure.Error {
	return &failure.Error{Code: failure.InvalidData, Message: fmt.Sprintf(format, a...), Sent: sent}
}

// toResult reads a tool result: structured content when present, and the
// text blocks joined by newlines. Other content (images, resources) has
// no place in a workflow variable and is left out.
func toResult(res *mcp.CallToolResult) Result {
	var texts []string
	for _, content := range res.Content {
		if t, ok := content.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	r := Result{Structured: res.StructuredContent, Text: strings.Join(texts, "\n"), IsError: res.IsError}
	r.Value = r.Text
	if r.Structured != nil {
		r.Value = r.Structured
	}
	return r
}

// clip shortens s to maxErrorText bytes on a character boundary.
func clip(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	n := maxErrorText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
