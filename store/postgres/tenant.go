package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/internal/canon"
	"github.com/wetel/wetel/store"
)

// CreateWorkspace inserts a workspace created now.
func (s *Store) CreateWorkspace(ctx context.Context, name string) (store.Workspace, error) {
	w := store.Workspace{Name: name, CreatedAt: orNow(time.Time{})}
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO workspaces (name, created_at) VALUES ($1, $2) RETURNING id`,
			name, w.CreatedAt).Scan(&w.ID)
	})
	if err != nil {
		return store.Workspace{}, fmt.Errorf("creating workspace: %w", err)
	}
	return w, nil
}

// CreateFirstWorkspace creates a workspace when there is none, under a
// transaction-level advisory lock, so that of replicas starting at once on
// an empty database exactly one creates it (and sets up the first start).
func (s *Store) CreateFirstWorkspace(ctx context.Context, name string) (store.Workspace, bool, error) {
	w := store.Workspace{Name: name, CreatedAt: orNow(time.Time{})}
	created := false
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('wetel first start ' || current_schema()))`); err != nil {
			return err
		}
		var any bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM workspaces)`).Scan(&any); err != nil || any {
			return err
		}
		created = true
		return tx.QueryRow(ctx, `INSERT INTO workspaces (name, created_at) VALUES ($1, $2) RETURNING id`, name, w.CreatedAt).Scan(&w.ID)
	})
	if err != nil {
		return store.Workspace{}, false, fmt.Errorf("creating the first workspace: %w", err)
	}
	if !created {
		return store.Workspace{}, false, nil
	}
	return w, true, nil
}

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.p.Ping(ctx) }

// AgreeSetting stores value under name unless it has one, and returns the
// stored value. Of two servers setting it at once, the insert of one waits
// for the other's and then does nothing, and both read the same value.
func (s *Store) AgreeSetting(ctx context.Context, name, value string) (string, error) {
	var stored string
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		if _, err := c.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, value); err != nil {
			return err
		}
		return c.QueryRow(ctx, `SELECT value FROM settings WHERE name = $1`, name).Scan(&stored)
	})
	if err != nil {
		return "", fmt.Errorf("setting %s: %w", name, err)
	}
	return stored, nil
}

// Workspace reads a workspace.
func (s *Store) Workspace(ctx context.Context, id int64) (store.Workspace, error) {
	var w store.Workspace
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT id, name, created_at FROM workspaces WHERE id = $1`, id).
			Scan(&w.ID, &w.Name, &w.CreatedAt)
	})
	if err != nil {
		return store.Workspace{}, fmt.Errorf("reading workspace %d: %w", id, mapErr(err))
	}
	w.CreatedAt = w.CreatedAt.UTC()
	return w, nil
}

// CreateWorkflow inserts w unpublished; zero times are now.
func (s *Store) CreateWorkflow(ctx context.Context, w store.Workflow) (store.Workflow, error) {
	w.CreatedAt = orNow(w.CreatedAt)
	if w.UpdatedAt.IsZero() {
		w.UpdatedAt = w.CreatedAt
	}
	w.UpdatedAt, w.PublishedVersion = orNow(w.UpdatedAt), 0
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO workflows (workspace_id, name, description, draft,
			failure_response, notify_on_failure, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
			w.WorkspaceID, w.Name, w.Description, jsonText(w.Draft), w.FailureResponse,
			w.NotifyOnFailure, w.CreatedAt, w.UpdatedAt).Scan(&w.ID)
	})
	if err != nil {
		return store.Workflow{}, fmt.Errorf("creating workflow in workspace %d: %w", w.WorkspaceID, mapErr(err))
	}
	return w, nil
}

// Workflow reads a workflow of ws.
func (s *Store) Workflow(ctx context.Context, ws, id int64) (store.Workflow, error) {
	var w store.Workflow
	var draft []byte
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT id, workspace_id, name, description, draft, published_version,
			failure_response, notify_on_failure, created_at, updated_at
			FROM workflows WHERE id = $1 AND workspace_id = $2`, id, ws).
			Scan(&w.ID, &w.WorkspaceID, &w.Name, &w.Description, &draft, &w.PublishedVersion,
				&w.FailureResponse, &w.NotifyOnFailure, &w.CreatedAt, &w.UpdatedAt)
	})
	if err != nil {
		return store.Workflow{}, fmt.Errorf("reading workflow %d: %w", id, mapErr(err))
	}
	w.Draft, w.CreatedAt, w.UpdatedAt = rawJSON(draft), w.CreatedAt.UTC(), w.UpdatedAt.UTC()
	return w, nil
}

// SaveDraft replaces a workflow's draft.
func (s *Store) SaveDraft(ctx context.Context, ws, id int64, draft json.RawMessage) error {
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		tag, err := c.Exec(ctx, `UPDATE workflows SET draft = $1, updated_at = $2
			WHERE id = $3 AND workspace_id = $4`, jsonText(draft), orNow(time.Time{}), id, ws)
		if err == nil && tag.RowsAffected() == 0 {
			return store.ErrNotFound
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("saving draft of workflow %d: %w", id, err)
	}
	return nil
}

// Publish stores graph as the next version unless it equals the current
// one. The workflow row is locked first, so two publishes take turns.
func (s *Store) Publish(ctx context.Context, ws, id int64, graph json.RawMessage, by string) (store.WorkflowVersion, error) {
	v := store.WorkflowVersion{WorkflowID: id, WorkspaceID: ws}
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var current int
		err := tx.QueryRow(ctx, `SELECT published_version FROM workflows
			WHERE id = $1 AND workspace_id = $2 FOR UPDATE`, id, ws).Scan(&current)
		if err != nil {
			return mapErr(err)
		}
		if current > 0 {
			var old []byte
			if err := tx.QueryRow(ctx, `SELECT graph, published_at, published_by FROM workflow_versions
				WHERE workflow_id = $1 AND number = $2`, id, current).Scan(&old, &v.PublishedAt, &v.PublishedBy); err != nil {
				return fmt.Errorf("reading version %d: %w", current, err)
			}
			same, err := canon.Equal(old, graph)
			if err != nil {
				return err
			}
			if same {
				v.Number, v.Graph, v.PublishedAt = current, old, v.PublishedAt.UTC()
				return nil
			}
		} else if _, err := canon.Bytes(graph); err != nil {
			return err
		}
		now := orNow(time.Time{})
		v.Number, v.Graph, v.PublishedAt, v.PublishedBy = current+1, graph, now, by
		if _, err := tx.Exec(ctx, `INSERT INTO workflow_versions (workflow_id, number, workspace_id,
			graph, published_at, published_by) VALUES ($1, $2, $3, $4, $5, $6)`,
			id, v.Number, ws, string(graph), now, by); err != nil {
			return mapErr(err)
		}
		_, err = tx.Exec(ctx, `UPDATE workflows SET published_version = $1, updated_at = $2 WHERE id = $3`,
			v.Number, now, id)
		return err
	})
	if err != nil {
		return store.WorkflowVersion{}, fmt.Errorf("publishing workflow %d: %w", id, err)
	}
	return v, nil
}

// WorkflowVersion reads one published version, its graph byte for byte.
func (s *Store) WorkflowVersion(ctx context.Context, ws, id int64, number int) (store.WorkflowVersion, error) {
	v := store.WorkflowVersion{WorkflowID: id, WorkspaceID: ws, Number: number}
	var graph []byte
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT graph, published_at, published_by FROM workflow_versions
			WHERE workflow_id = $1 AND number = $2 AND workspace_id = $3`, id, number, ws).
			Scan(&graph, &v.PublishedAt, &v.PublishedBy)
	})
	if err != nil {
		return store.WorkflowVersion{}, fmt.Errorf("reading version %d of workflow %d: %w", number, id, mapErr(err))
	}
	v.Graph, v.PublishedAt = graph, v.PublishedAt.UTC()
	return v, nil
}

// CreateAgent inserts a; its workflow, when set, must be ws's own.
func (s *Store) CreateAgent(ctx context.Context, a store.Agent) (store.Agent, error) {
	a.CreatedAt = orNow(a.CreatedAt)
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO agents (workspace_id, name, persona, default_model,
			workflow_id, created_at)
			SELECT $1, $2, $3, $4, $5, $6
			WHERE $5::bigint IS NULL OR EXISTS (SELECT 1 FROM workflows WHERE id = $5 AND workspace_id = $1)
			RETURNING id`,
			a.WorkspaceID, a.Name, a.Persona, a.DefaultModel, nullID(a.WorkflowID), a.CreatedAt).Scan(&a.ID)
	})
	if err != nil {
		return store.Agent{}, fmt.Errorf("creating agent in workspace %d: %w", a.WorkspaceID, mapErr(err))
	}
	return a, nil
}

// Agent reads an agent of ws.
func (s *Store) Agent(ctx context.Context, ws, id int64) (store.Agent, error) {
	var a store.Agent
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT id, workspace_id, name, persona, default_model,
			coalesce(workflow_id, 0), created_at FROM agents WHERE id = $1 AND workspace_id = $2`, id, ws).
			Scan(&a.ID, &a.WorkspaceID, &a.Name, &a.Persona, &a.DefaultModel, &a.WorkflowID, &a.CreatedAt)
	})
	if err != nil {
		return store.Agent{}, fmt.Errorf("reading agent %d: %w", id, mapErr(err))
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, nil
}
