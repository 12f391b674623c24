// Package mcpclient calls tools on MCP servers, the connectors a workspace
// registers, for the tool node.
//
// A Pool keeps one live session per connector, over stdio (a command the
// pool starts) or Streamable HTTP. Register connects, lists the
// connector's tools and caches that list; Call checks each call against
// the cached list and input schema before sending it, so that MCP schema
// drift is reported as INVALID_DATA instead of reaching the server.
// Every error Call returns is a *failure.Error whose Sent field tells the
// retry layer whether the tool call may have reached the server.
package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
)

// The transports a Connector may use.
const (
	// TransportStdio runs Connector.Command and speaks MCP over its
	// standard input and output.
	TransportStdio = "stdio"
	// TransportHTTP speaks MCP Streamable HTTP to Connector.URL.
	TransportHTTP = "http"
)

// ErrInvalidConnector is wrapped by Register when a Connector's settings
// cannot work.
var ErrInvalidConnector = errors.New("invalid MCP connector")

// Connector is a registered MCP server that a tool node calls by id.
type Connector struct {
	// ID is the workspace's connector id, referenced by tool nodes.
	ID int
	// Name is the connector's display name, used in messages and logs.
	Name string
	// Transport is TransportStdio or TransportHTTP.
	Transport string
	// Command is the program and its arguments, for TransportStdio.
	Command []string
	// URL is the Streamable HTTP endpoint, for TransportHTTP.
	URL string
	// Env holds the stdio server's credentials, set as environment
	// variables next to PATH and HOME only.
	Env map[string]string
	// Headers holds the HTTP server's credentials, sent as request headers
	// to the connector's own origin only.
	Headers map[string]string
}

// Tool is one tool a connector offers, as listed at registration.
type Tool struct {
	// Name is the name the tool is called by.
	Name string `json:"name"`
	// Description is the server's description of the tool.
	Description string `json:"description"`
	// InputSchema is the JSON Schema the tool's arguments must match.
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Result is what a tool call answered.
type Result struct {
	// Structured is the result's structured content, nil when it has none.
	Structured any
	// Text is the result's text content blocks, joined by newlines.
	Text string
	// IsError reports that the tool itself reported a failure.
	IsError bool
	// Value is what the tool node's outputVar holds: Structured when the
	// result has structured content, else Text.
	Value any
}

// validate reports settings that cannot work, before anything is started.
func (c Connector) validate() error {
	if c.ID < 1 {
		return fmt.Errorf("%w: id must be a positive integer, got %d", ErrInvalidConnector, c.ID)
	}
	switch c.Transport {
	case TransportStdio:
		if len(c.Command) == 0 || c.Command[0] == "" {
			return fmt.Errorf("%w: %s: command is required for transport stdio", ErrInvalidConnector, c.label())
		}
	case TransportHTTP:
		u, err := url.Parse(c.URL)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return fmt.Errorf("%w: %s: url must be an absolute http or https URL for transport http", ErrInvalidConnector, c.label())
		}
	default:
		return fmt.Errorf("%w: %s: transport must be stdio or http, got %q", ErrInvalidConnector, c.label(), c.Transport)
	}
	return nil
}

// label names the connector in messages: `connector 12 (orders)`.
func (c Connector) label() string {
	if c.Name == "" {
		return fmt.Sprintf("connector %d", c.ID)
	}
	return fmt.Sprintf("connector %d (%s)", c.ID, c.Name)
}

// secrets returns the values that must never appear in an error: the
// credentials, and the password and query values of the URL, where a
// careless configuration might have put a token.
func (c Connector) secrets() []string {
	var out []string
	for _, v := range c.Env {
		out = append(out, v)
	}
	for _, v := range c.Headers {
		out = append(out, v)
	}
	if u, err := url.Parse(c.URL); err == nil {
		if pw, ok := u.User.Password(); ok {
			out = append(out, pw)
		}
		for _, vs := range u.Query() {
			out = append(out, vs...)
		}
	}
	return out
}

// clone copies c so that a caller changing its maps afterwards does not
// change a registered connector under a running session.
func (c Connector) clone() Connector {
	c.Command = slices.Clone(c.Command)
	c.Env = maps.Clone(c.Env)
	c.Headers = maps.Clone(c.Headers)
	return c
}
