package gql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/wetel/wetel/mcpclient"
	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/store"
)

// Limits of a registration.
const (
	maxHeaders     = 50
	maxHeaderBytes = 8 << 10
	maxURLBytes    = 2048
	maxCommandArgs = 64
	maxTimeoutMs   = 30000
)

// ActionAAD binds a custom action's sealed headers to its row, so a value
// copied to another row (or workspace) does not open.
func ActionAAD(ws, id int64) string { return fmt.Sprintf("ws:%d/customAction:%d/header:", ws, id) }

// connectorAAD does the same for a connector's credentials.
func connectorAAD(ws, id int64) string {
	return fmt.Sprintf("ws:%d/mcpConnector:%d/credential:", ws, id)
}

func keyValues(in []KeyValueInput, field string) (map[string]string, error) {
	if len(in) > maxHeaders {
		return nil, Errorf(CodeLimit, "%s: %d entries, at most %d", field, len(in), maxHeaders)
	}
	out := make(map[string]string, len(in))
	for i, kv := range in {
		if strings.TrimSpace(kv.Name) == "" || strings.ContainsAny(kv.Name, " \t\r\n:") {
			return nil, Errorf(CodeValidation, "%s[%d].name: must be a non-empty name without spaces or colons", field, i)
		}
		if strings.ContainsAny(kv.Value, "\r\n") {
			return nil, Errorf(CodeValidation, "%s[%d].value: must not contain line breaks", field, i)
		}
		if len(kv.Value) > maxHeaderBytes {
			return nil, Errorf(CodeLimit, "%s[%d].value: over %d bytes", field, i, maxHeaderBytes)
		}
		if _, dup := out[kv.Name]; dup {
			return nil, Errorf(CodeValidation, "%s[%d].name: %q is given twice", field, i, kv.Name)
		}
		out[kv.Name] = kv.Value
	}
	return out, nil
}

func maskedList(m map[string]string) []KeyValue {
	masked := secrets.MaskHeaders(m)
	out := make([]KeyValue, 0, len(m))
	for k := range m {
		out = append(out, KeyValue{Name: k, Value: masked[k]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// checkCallURL refuses what can never be called: no http(s) scheme or no
// host. A host that is a template is judged when the call is made.
func checkCallURL(field, raw string) error {
	if len(raw) > maxURLBytes {
		return Errorf(CodeLimit, "%s: over %d bytes", field, maxURLBytes)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Errorf(CodeValidation, "%s: must be an absolute http or https URL", field)
	}
	// A URL is stored in clear and shown back; headers are sealed and
	// masked (see secrets.URLCredential).
	if what := secrets.URLCredential(raw); what != "" {
		return Errorf(CodeValidation, "%s: must not hold credentials (it has %s): send them as a header, which is encrypted at rest and shown masked", field, what)
	}
	return nil
}

func (r *Resolver) putCustomAction(ctx context.Context, in CustomActionInput) (*CustomAction, error) {
	c, err := owner(ctx, "createCustomAction")
	if err != nil {
		return nil, err
	}
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	method := strings.ToUpper(deref(in.Method))
	switch method {
	case "":
		method = "POST"
	case "GET", "POST", "PUT", "PATCH", "DELETE":
	default:
		return nil, Errorf(CodeValidation, "method: must be GET, POST, PUT, PATCH or DELETE")
	}
	if err := checkCallURL("url", in.URL); err != nil {
		return nil, err
	}
	if t := deref(in.TimeoutMs); t < 0 || t > maxTimeoutMs {
		return nil, Errorf(CodeValidation, "timeoutMs: must be 0 (the node's) to %d", maxTimeoutMs)
	}
	if in.ID != nil && *in.ID < 1 {
		return nil, Errorf(CodeValidation, "id: must be a positive integer")
	}
	headers, err := keyValues(in.Headers, "headers")
	if err != nil {
		return nil, err
	}
	a := store.CustomAction{ID: int64(deref(in.ID)), WorkspaceID: c.WorkspaceID, Name: in.Name, Method: method,
		URL: in.URL, TimeoutMs: deref(in.TimeoutMs)}
	if a.ID == 0 {
		// The id is part of what a sealed value is bound to: take one
		// first, then seal and store the headers under it.
		if a, err = r.Store.PutCustomAction(ctx, a); err != nil {
			return nil, nameErr(err, "custom action", in.Name)
		}
	}
	if a.Headers, err = r.Box.SealMap(headers, ActionAAD(c.WorkspaceID, a.ID)); err != nil {
		return nil, err
	}
	a, err = r.Store.PutCustomAction(ctx, a)
	if err != nil {
		return nil, nameErr(err, "custom action", in.Name)
	}
	return toCustomAction(a, headers), nil
}

func toCustomAction(a store.CustomAction, plain map[string]string) *CustomAction {
	return &CustomAction{ID: int(a.ID), Name: a.Name, Method: a.Method, URL: secrets.MaskURL(a.URL), Headers: maskedList(plain),
		TimeoutMs: a.TimeoutMs, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// shownAction opens a stored action's headers to mask them for display.
func (r *Resolver) shownAction(a store.CustomAction) (*CustomAction, error) {
	plain, err := r.Box.OpenMap(a.Headers, ActionAAD(a.WorkspaceID, a.ID))
	if err != nil {
		return nil, fmt.Errorf("custom action %d: %w", a.ID, err)
	}
	return toCustomAction(a, plain), nil
}

func (r *Resolver) registerConnector(ctx context.Context, in McpConnectorInput) (*McpConnector, error) {
	c, err := owner(ctx, "registerMcpConnector")
	if err != nil {
		return nil, err
	}
	if err := checkName(in.Name); err != nil {
		return nil, err
	}
	creds, err := keyValues(in.Credentials, "credentials")
	if err != nil {
		return nil, err
	}
	conn := store.McpConnector{ID: int64(deref(in.ID)), WorkspaceID: c.WorkspaceID, Name: in.Name, Transport: in.Transport,
		Command: in.Command, URL: deref(in.URL)}
	switch in.Transport {
	case store.TransportStdio:
		if len(in.Command) == 0 || strings.TrimSpace(in.Command[0]) == "" || len(in.Command) > maxCommandArgs || in.URL != nil {
			return nil, Errorf(CodeValidation, "command: a stdio connector needs a command (at most %d arguments) and no url", maxCommandArgs)
		}
	case store.TransportHTTP:
		if len(in.Command) > 0 {
			return nil, Errorf(CodeValidation, "command: an http connector has a url, not a command")
		}
		if err := checkCallURL("url", conn.URL); err != nil {
			return nil, err
		}
	default:
		return nil, Errorf(CodeValidation, "transport: must be stdio or http")
	}
	if in.ID != nil && *in.ID < 1 {
		return nil, Errorf(CodeValidation, "id: must be a positive integer")
	}
	fresh := conn.ID == 0
	if fresh {
		// The id comes first: the credentials are sealed under it.
		if conn, err = r.Store.PutMcpConnector(ctx, conn); err != nil {
			return nil, nameErr(err, "mcp connector", in.Name)
		}
	}
	// Rule: "the connector's tool list cached at registration".
	tools, err := r.Connect(ctx, c.WorkspaceID, mcpConnector(conn, creds))
	if err != nil {
		if fresh {
			// Nothing half-registered stays behind.
			_ = r.Store.DeleteMcpConnector(ctx, c.WorkspaceID, conn.ID)
			if r.Disconnect != nil {
				r.Disconnect(c.WorkspaceID, conn.ID)
			}
		}
		return nil, Errorf(CodeValidation, "connecting to the MCP server: %v", err)
	}
	if conn.Tools, err = json.Marshal(tools); err != nil {
		return nil, err
	}
	if conn.Credentials, err = r.Box.SealMap(creds, connectorAAD(c.WorkspaceID, conn.ID)); err != nil {
		return nil, err
	}
	if conn, err = r.Store.PutMcpConnector(ctx, conn); err != nil {
		return nil, nameErr(err, "mcp connector", in.Name)
	}
	return toConnector(conn, creds), nil
}

// mcpConnector is the client's view of a stored connector: credentials are
// environment variables for stdio and headers for http.
func mcpConnector(c store.McpConnector, creds map[string]string) mcpclient.Connector {
	out := mcpclient.Connector{ID: int(c.ID), Name: c.Name, Transport: c.Transport, Command: c.Command, URL: c.URL}
	if c.Transport == store.TransportStdio {
		out.Env = creds
	} else {
		out.Headers = creds
	}
	return out
}

// MCPConnector opens a stored connector's credentials for the client.
func MCPConnector(box *secrets.Box, c store.McpConnector) (mcpclient.Connector, error) {
	creds, err := box.OpenMap(c.Credentials, connectorAAD(c.WorkspaceID, c.ID))
	if err != nil {
		return mcpclient.Connector{}, fmt.Errorf("mcp connector %d: %w", c.ID, err)
	}
	return mcpConnector(c, creds), nil
}

func toConnector(c store.McpConnector, plain map[string]string) *McpConnector {
	tools := shownTools(c.Tools)
	cmd := c.Command
	if cmd == nil {
		cmd = []string{}
	}
	return &McpConnector{ID: int(c.ID), Name: c.Name, Transport: c.Transport, Command: cmd, URL: secrets.MaskURL(c.URL),
		Credentials: maskedList(plain), Tools: tools, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

func (r *Resolver) shownConnector(c store.McpConnector) (*McpConnector, error) {
	plain, err := r.Box.OpenMap(c.Credentials, connectorAAD(c.WorkspaceID, c.ID))
	if err != nil {
		return nil, fmt.Errorf("mcp connector %d: %w", c.ID, err)
	}
	return toConnector(c, plain), nil
}

// showAll shows each stored row, opening its secrets to mask them.
func showAll[S, T any](rows []S, show func(S) (*T, error)) ([]T, error) {
	out := make([]T, len(rows))
	for i, row := range rows {
		shown, err := show(row)
		if err != nil {
			return nil, err
		}
		out[i] = *shown
	}
	return out, nil
}

// nameErr maps a put's store error: ErrConflict there means another row of
// the workspace has the name (the store's contract), which is no race to
// retry.
func nameErr(err error, what, name string) error {
	if errors.Is(err, store.ErrConflict) {
		return Errorf(CodeConflict, "name: the workspace already has a %s named %q", what, name)
	}
	return storeErr(err, what, 0)
}

// checkName refuses an empty or over-long name.
func checkName(name string) error {
	if strings.TrimSpace(name) == "" {
		return Errorf(CodeValidation, "name: must not be empty")
	}
	return checkText("name", name, MaxNameBytes)
}

// shownTools returns a connector's cached tool list as the schema
// documents it. Rows cached before mcpclient.Tool had JSON names hold Go
// field names ("Name"); decoding ignores case, so re-encoding fixes them.
func shownTools(raw []byte) JSON {
	var tools []mcpclient.Tool
	if len(raw) == 0 || json.Unmarshal(raw, &tools) != nil {
		return JSON("[]")
	}
	if tools == nil {
		tools = []mcpclient.Tool{}
	}
	out, err := json.Marshal(tools)
	if err != nil {
		return JSON("[]")
	}
	return JSON(out)
}
