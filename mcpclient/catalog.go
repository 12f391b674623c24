package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxTools bounds one tools/list walk: a server that hands out cursors
// forever must not keep Register busy until its context ends.
const maxTools = 10_000

// catalog is a connector's tool list as cached at registration, the list
// later calls are checked against.
type catalog struct {
	tools  []Tool
	byName map[string]*toolSpec
}

// toolSpec is one cached tool with its compiled input schema.
type toolSpec struct {
	Tool
	// schema is nil when the server's schema could not be compiled; such
	// a tool's arguments are left for the server to check.
	schema *jsonschema.Schema
}

// listTools walks every page of tools/list.
func listTools(ctx context.Context, sess *mcp.ClientSession) ([]Tool, error) {
	var tools []Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if len(tools) == maxTools {
			return nil, fmt.Errorf("tools/list offers more than %d tools", maxTools)
		}
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %q: encoding input schema: %w", t.Name, err)
		}
		tools = append(tools, Tool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return tools, nil
}

// newCatalog compiles the input schemas of a fresh listing. A tool whose
// schema does not compile stays callable without local checks and is
// logged, so that one odd schema does not take the whole connector down.
func newCatalog(ctx context.Context, log *slog.Logger, c Connector, tools []Tool) *catalog {
	cat := &catalog{byName: make(map[string]*toolSpec, len(tools))}
	for _, t := range tools {
		if _, dup := cat.byName[t.Name]; dup {
			log.WarnContext(ctx, "mcp connector lists a tool twice; keeping the first",
				"connector", c.ID, "name", c.Name, "tool", t.Name)
			continue
		}
		schema, err := compileSchema(t.InputSchema)
		if err != nil {
			log.WarnContext(ctx, "mcp tool input schema does not compile; arguments go unchecked",
				"connector", c.ID, "name", c.Name, "tool", t.Name, "error", err)
		}
		cat.byName[t.Name] = &toolSpec{Tool: t, schema: schema}
		cat.tools = append(cat.tools, t)
	}
	return cat
}

// toolsCopy returns the cached tools in listing order, safe to modify.
func (cat *catalog) toolsCopy() []Tool {
	out := make([]Tool, len(cat.tools))
	for i, t := range cat.tools {
		t.InputSchema = append(json.RawMessage(nil), t.InputSchema...)
		out[i] = t
	}
	return out
}

// refresh lists the connector's tools on its live session and caches them,
// resending once on a fresh session when the old one turns out to be gone.
// Listing counts as connecting: no tool was called, so failures have Sent
// false.
func (c *conn) refresh(ctx context.Context) (*catalog, error) {
	for attempt := 0; ; attempt++ {
		l, err := c.session(ctx)
		if err != nil {
			return nil, err
		}
		listCtx, rec := withStatus(ctx)
		tools, err := listTools(listCtx, l.sess)
		if err == nil {
			cat := newCatalog(ctx, c.pool.log, c.c, tools)
			c.cat.Store(cat)
			return cat, nil
		}
		status := rec.get()
		if ctx.Err() == nil {
			c.forget(l)
		}
		if attempt == 0 && ctx.Err() == nil && notDelivered(err, status) {
			continue
		}
		fe := c.connectFailure(ctx, err, status)
		fe.Message = "listing the tools of MCP " + c.c.label()
		return nil, fe
	}
}
