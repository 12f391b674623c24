// Package callout is the machinery shared by the node types that call other
// systems (action, webhook, tool): rendering a URL template safely, making
// an HTTP call under a retry policy with its secrets redacted, the custom
// actions and MCP connectors a workspace registers, and the outbox of async
// webhooks. It declares the node.Services keys of those capabilities
// (HTTPKey, ActionsKey, ToolsKey, OutboxKey, and ClockKey, WaitKey and
// RandKey for retries), which the server and cmd/wetel provide.
//
// It lives at the module root, beside outbound, retry and mcpclient which
// it composes, rather than under node/: the packages under node/ are node
// types (node/all registers each of them), and this one is also used by the
// server and the command line. Keeping it out of package node keeps node a
// contract that graph checkers link without net/http or the MCP SDK.
package callout
