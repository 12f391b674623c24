package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
	"github.com/wetel/wetel/store/internal/jsoncol"
)

// Column lists of the per-workspace registries, in scan order.
const (
	actionCols    = `workspace_id, id, name, method, url, headers, timeout_ms, created_at, updated_at`
	connectorCols = `workspace_id, id, name, transport, command, url, credentials, tools, created_at, updated_at`
)

// The puts insert or replace in one statement: id 0 takes the workspace's
// largest id plus one, under the writer's lock, so two puts never pick the
// same. A replace keeps created_at. The workspace must exist (its foreign
// key); a name another id holds breaks the (workspace_id, name) index,
// which is ErrConflict. (The WHERE true lets SQLite parse the ON CONFLICT
// after a SELECT.)
const (
	putActionSQL = `INSERT INTO custom_actions (` + actionCols + `)
		SELECT ?1, CASE WHEN ?2 = 0
			THEN (SELECT coalesce(max(id), 0) + 1 FROM custom_actions WHERE workspace_id = ?1) ELSE ?2 END,
			?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE true
		ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, method = excluded.method,
			url = excluded.url, headers = excluded.headers, timeout_ms = excluded.timeout_ms,
			updated_at = excluded.updated_at
		RETURNING id, created_at`
	putConnectorSQL = `INSERT INTO mcp_connectors (` + connectorCols + `)
		SELECT ?1, CASE WHEN ?2 = 0
			THEN (SELECT coalesce(max(id), 0) + 1 FROM mcp_connectors WHERE workspace_id = ?1) ELSE ?2 END,
			?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 WHERE true
		ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, transport = excluded.transport,
			command = excluded.command, url = excluded.url, credentials = excluded.credentials,
			tools = excluded.tools, updated_at = excluded.updated_at
		RETURNING id, created_at`
)

// scanAction reads actionCols.
func scanAction(v []driver.Value) (store.CustomAction, error) {
	h, err := jsoncol.ParseMap(blob(v[5]))
	return store.CustomAction{WorkspaceID: i64(v[0]), ID: i64(v[1]), Name: text(v[2]), Method: text(v[3]),
		URL: text(v[4]), Headers: h, TimeoutMs: int(i64(v[6])), CreatedAt: msTime(v[7]),
		UpdatedAt: msTime(v[8])}, err
}

// scanConnector reads connectorCols.
func scanConnector(v []driver.Value) (store.McpConnector, error) {
	cmd, err := jsoncol.ParseList(blob(v[4]))
	if err != nil {
		return store.McpConnector{}, err
	}
	creds, err := jsoncol.ParseMap(blob(v[6]))
	return store.McpConnector{WorkspaceID: i64(v[0]), ID: i64(v[1]), Name: text(v[2]),
		Transport: text(v[3]), Command: cmd, URL: text(v[5]), Credentials: creds, Tools: doc(v[7]),
		CreatedAt: msTime(v[8]), UpdatedAt: msTime(v[9])}, err
}

// PutCustomAction inserts a, or replaces the action with its id.
func (s *Store) PutCustomAction(ctx context.Context, a store.CustomAction) (store.CustomAction, error) {
	if err := check.CustomAction(&a); err != nil {
		return store.CustomAction{}, fmt.Errorf("putting custom action: %w", err)
	}
	h, err := jsoncol.Map(a.Headers)
	if err != nil {
		return store.CustomAction{}, err
	}
	created, updated := msOrNow(a.CreatedAt), msOrNow(a.UpdatedAt)
	err = s.write(ctx, func(c *conn) error {
		v, err := c.row(qPutAction, a.WorkspaceID, a.ID, a.Name, a.Method, a.URL, jsonText(h), a.TimeoutMs,
			created, updated)
		if err == nil {
			a.ID, a.CreatedAt = i64(v[0]), msTime(v[1])
		}
		return err
	})
	if err != nil {
		return store.CustomAction{}, fmt.Errorf("putting custom action %q in workspace %d: %w", a.Name, a.WorkspaceID, mapErr(err))
	}
	a.UpdatedAt = fromMs(updated)
	return a, nil
}

// CustomAction reads an action of ws.
func (s *Store) CustomAction(ctx context.Context, ws, id int64) (store.CustomAction, error) {
	a, err := readOne(ctx, s, scanAction, qAction, ws, id)
	if err != nil {
		return store.CustomAction{}, fmt.Errorf("reading custom action %d: %w", id, err)
	}
	return a, nil
}

// CustomActions lists ws's actions in id order.
func (s *Store) CustomActions(ctx context.Context, ws int64) ([]store.CustomAction, error) {
	out, err := readList(ctx, s, scanAction, qActions, ws)
	if err != nil {
		return nil, fmt.Errorf("listing custom actions of workspace %d: %w", ws, err)
	}
	return out, nil
}

// DeleteCustomAction deletes an action of ws.
func (s *Store) DeleteCustomAction(ctx context.Context, ws, id int64) error {
	if err := s.write(ctx, func(c *conn) error { return oneRow(c.exec(qDelAction, ws, id)) }); err != nil {
		return fmt.Errorf("deleting custom action %d: %w", id, err)
	}
	return nil
}

// PutMcpConnector inserts c, or replaces the connector with its id.
func (s *Store) PutMcpConnector(ctx context.Context, mc store.McpConnector) (store.McpConnector, error) {
	if err := check.McpConnector(&mc); err != nil {
		return store.McpConnector{}, fmt.Errorf("putting mcp connector: %w", err)
	}
	cmd, err := jsoncol.List(mc.Command)
	if err != nil {
		return store.McpConnector{}, err
	}
	creds, err := jsoncol.Map(mc.Credentials)
	if err != nil {
		return store.McpConnector{}, err
	}
	created, updated := msOrNow(mc.CreatedAt), msOrNow(mc.UpdatedAt)
	err = s.write(ctx, func(c *conn) error {
		v, err := c.row(qPutConnector, mc.WorkspaceID, mc.ID, mc.Name, mc.Transport, jsonText(cmd), mc.URL,
			jsonText(creds), jsonText(mc.Tools), created, updated)
		if err == nil {
			mc.ID, mc.CreatedAt = i64(v[0]), msTime(v[1])
		}
		return err
	})
	if err != nil {
		return store.McpConnector{}, fmt.Errorf("putting mcp connector %q in workspace %d: %w", mc.Name, mc.WorkspaceID, mapErr(err))
	}
	mc.UpdatedAt = fromMs(updated)
	return mc, nil
}

// McpConnector reads a connector of ws.
func (s *Store) McpConnector(ctx context.Context, ws, id int64) (store.McpConnector, error) {
	mc, err := readOne(ctx, s, scanConnector, qConnector, ws, id)
	if err != nil {
		return store.McpConnector{}, fmt.Errorf("reading mcp connector %d: %w", id, err)
	}
	return mc, nil
}

// McpConnectors lists ws's connectors in id order.
func (s *Store) McpConnectors(ctx context.Context, ws int64) ([]store.McpConnector, error) {
	out, err := readList(ctx, s, scanConnector, qConnectors, ws)
	if err != nil {
		return nil, fmt.Errorf("listing mcp connectors of workspace %d: %w", ws, err)
	}
	return out, nil
}

// DeleteMcpConnector deletes a connector of ws.
func (s *Store) DeleteMcpConnector(ctx context.Context, ws, id int64) error {
	if err := s.write(ctx, func(c *conn) error { return oneRow(c.exec(qDelConnector, ws, id)) }); err != nil {
		return fmt.Errorf("deleting mcp connector %d: %w", id, err)
	}
	return nil
}
