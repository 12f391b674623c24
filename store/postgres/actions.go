package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

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
// largest id plus one. A replace keeps created_at; a name another id holds
// breaks the (workspace_id, name) key, which is ErrConflict.
const (
	putActionSQL = `INSERT INTO custom_actions (` + actionCols + `)
		SELECT $1, CASE WHEN $2::bigint = 0
			THEN (SELECT coalesce(max(id), 0) + 1 FROM custom_actions WHERE workspace_id = $1) ELSE $2 END,
			$3, $4, $5, $6, $7, $8, $9
		ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, method = excluded.method,
			url = excluded.url, headers = excluded.headers, timeout_ms = excluded.timeout_ms,
			updated_at = excluded.updated_at
		RETURNING id, created_at`
	putConnectorSQL = `INSERT INTO mcp_connectors (` + connectorCols + `)
		SELECT $1, CASE WHEN $2::bigint = 0
			THEN (SELECT coalesce(max(id), 0) + 1 FROM mcp_connectors WHERE workspace_id = $1) ELSE $2 END,
			$3, $4, $5, $6, $7, $8, $9, $10
		ON CONFLICT (workspace_id, id) DO UPDATE SET name = excluded.name, transport = excluded.transport,
			command = excluded.command, url = excluded.url, credentials = excluded.credentials,
			tools = excluded.tools, updated_at = excluded.updated_at
		RETURNING id, created_at`
)

// scanAction reads actionCols.
func scanAction(r scanner) (store.CustomAction, error) {
	var a store.CustomAction
	var headers []byte
	if err := r.Scan(&a.WorkspaceID, &a.ID, &a.Name, &a.Method, &a.URL, &headers, &a.TimeoutMs,
		&a.CreatedAt, &a.UpdatedAt); err != nil {
		return store.CustomAction{}, err
	}
	var err error
	a.Headers, err = jsoncol.ParseMap(headers)
	a.CreatedAt, a.UpdatedAt = a.CreatedAt.UTC(), a.UpdatedAt.UTC()
	return a, err
}

// scanConnector reads connectorCols.
func scanConnector(r scanner) (store.McpConnector, error) {
	var mc store.McpConnector
	var cmd, creds, tools []byte
	if err := r.Scan(&mc.WorkspaceID, &mc.ID, &mc.Name, &mc.Transport, &cmd, &mc.URL, &creds, &tools,
		&mc.CreatedAt, &mc.UpdatedAt); err != nil {
		return store.McpConnector{}, err
	}
	var err error
	if mc.Command, err = jsoncol.ParseList(cmd); err != nil {
		return store.McpConnector{}, err
	}
	mc.Credentials, err = jsoncol.ParseMap(creds)
	mc.Tools, mc.CreatedAt, mc.UpdatedAt = rawJSON(tools), mc.CreatedAt.UTC(), mc.UpdatedAt.UTC()
	return mc, err
}

// putInWorkspace runs an upsert that may pick the workspace's next id, with
// the workspace row locked first (FOR NO KEY UPDATE, which foreign-key
// checks of other inserts do not wait for): puts of one workspace take
// turns, so two never pick the same id. The lock is its own statement, so
// the upsert's snapshot, taken after it, sees the previous put's row.
// ErrNotFound when there is no such workspace.
func (s *Store) putInWorkspace(ctx context.Context, ws int64, sql string, args ...any) (id int64, created time.Time, err error) {
	err = s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM workspaces WHERE id = $1 FOR NO KEY UPDATE`, ws).Scan(&one); err != nil {
			return err
		}
		return tx.QueryRow(ctx, sql, args...).Scan(&id, &created)
	})
	return id, created, mapErr(err)
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
	a.UpdatedAt = orNow(a.UpdatedAt)
	id, created, err := s.putInWorkspace(ctx, a.WorkspaceID, putActionSQL, a.WorkspaceID, a.ID, a.Name, a.Method,
		a.URL, jsonText(h), a.TimeoutMs, orNow(a.CreatedAt), a.UpdatedAt)
	if err != nil {
		return store.CustomAction{}, fmt.Errorf("putting custom action %q in workspace %d: %w", a.Name, a.WorkspaceID, err)
	}
	a.ID, a.CreatedAt = id, created.UTC()
	return a, nil
}

// CustomAction reads an action of ws.
func (s *Store) CustomAction(ctx context.Context, ws, id int64) (store.CustomAction, error) {
	a, err := readOne(ctx, s, scanAction, `SELECT `+actionCols+` FROM custom_actions
		WHERE workspace_id = $1 AND id = $2`, ws, id)
	if err != nil {
		return store.CustomAction{}, fmt.Errorf("reading custom action %d: %w", id, err)
	}
	return a, nil
}

// CustomActions lists ws's actions in id order.
func (s *Store) CustomActions(ctx context.Context, ws int64) ([]store.CustomAction, error) {
	out, err := list(ctx, s, scanAction, `SELECT `+actionCols+` FROM custom_actions
		WHERE workspace_id = $1 ORDER BY id`, ws)
	if err != nil {
		return nil, fmt.Errorf("listing custom actions of workspace %d: %w", ws, err)
	}
	return out, nil
}

// DeleteCustomAction deletes an action of ws.
func (s *Store) DeleteCustomAction(ctx context.Context, ws, id int64) error {
	if err := s.changeOne(ctx, `DELETE FROM custom_actions WHERE workspace_id = $1 AND id = $2`, ws, id); err != nil {
		return fmt.Errorf("deleting custom action %d: %w", id, err)
	}
	return nil
}

// PutMcpConnector inserts mc, or replaces the connector with its id.
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
	mc.UpdatedAt = orNow(mc.UpdatedAt)
	id, created, err := s.putInWorkspace(ctx, mc.WorkspaceID, putConnectorSQL, mc.WorkspaceID, mc.ID, mc.Name,
		mc.Transport, jsonText(cmd), mc.URL, jsonText(creds), jsonText(mc.Tools), orNow(mc.CreatedAt), mc.UpdatedAt)
	if err != nil {
		return store.McpConnector{}, fmt.Errorf("putting mcp connector %q in workspace %d: %w", mc.Name, mc.WorkspaceID, err)
	}
	mc.ID, mc.CreatedAt = id, created.UTC()
	return mc, nil
}

// McpConnector reads a connector of ws.
func (s *Store) McpConnector(ctx context.Context, ws, id int64) (store.McpConnector, error) {
	mc, err := readOne(ctx, s, scanConnector, `SELECT `+connectorCols+` FROM mcp_connectors
		WHERE workspace_id = $1 AND id = $2`, ws, id)
	if err != nil {
		return store.McpConnector{}, fmt.Errorf("reading mcp connector %d: %w", id, err)
	}
	return mc, nil
}

// McpConnectors lists ws's connectors in id order.
func (s *Store) McpConnectors(ctx context.Context, ws int64) ([]store.McpConnector, error) {
	out, err := list(ctx, s, scanConnector, `SELECT `+connectorCols+` FROM mcp_connectors
		WHERE workspace_id = $1 ORDER BY id`, ws)
	if err != nil {
		return nil, fmt.Errorf("listing mcp connectors of workspace %d: %w", ws, err)
	}
	return out, nil
}

// DeleteMcpConnector deletes a connector of ws.
func (s *Store) DeleteMcpConnector(ctx context.Context, ws, id int64) error {
	if err := s.changeOne(ctx, `DELETE FROM mcp_connectors WHERE workspace_id = $1 AND id = $2`, ws, id); err != nil {
		return fmt.Errorf("deleting mcp connector %d: %w", id, err)
	}
	return nil
}

// changeOne runs a change that must match a row: none is ErrNotFound.
func (s *Store) changeOne(ctx context.Context, sql string, args ...any) error {
	return s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		tag, err := c.Exec(ctx, sql, args...)
		if err == nil && tag.RowsAffected() == 0 {
			return store.ErrNotFound
		}
		return err
	})
}
