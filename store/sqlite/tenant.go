package sqlite

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wetel/wetel/internal/canon"
	"github.com/wetel/wetel/store"
)

// CreateWorkspace inserts a workspace created now.
func (s *Store) CreateWorkspace(ctx context.Context, name string) (store.Workspace, error) {
	w := store.Workspace{Name: name, CreatedAt: fromMs(msOrNow(time.Time{}))}
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qInsWorkspace, name, ms(w.CreatedAt))
		w.ID = i64(v0(v))
		return err
	})
	if err != nil {
		return store.Workspace{}, fmt.Errorf("creating workspace: %w", err)
	}
	return w, nil
}

// CreateFirstWorkspace creates a workspace when there is none. The writer
// runs one transaction at a time, so a check and an insert in one cannot
// race another's.
func (s *Store) CreateFirstWorkspace(ctx context.Context, name string) (store.Workspace, bool, error) {
	w := store.Workspace{Name: name, CreatedAt: fromMs(msOrNow(time.Time{}))}
	created := false
	err := s.write(ctx, func(c *conn) error {
		if _, err := c.row(qAnyWorkspace); err == nil {
			return nil
		} else if !errors.Is(mapErr(err), store.ErrNotFound) {
			return err
		}
		v, err := c.row(qInsWorkspace, name, ms(w.CreatedAt))
		w.ID, created = i64(v0(v)), err == nil
		return err
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
func (s *Store) Ping(ctx context.Context) error {
	return s.read(ctx, func(c *conn) error {
		_, err := c.row(qAnyWorkspace)
		if errors.Is(mapErr(err), store.ErrNotFound) {
			return nil
		}
		return err
	})
}

// AgreeSetting stores value under name unless it has one, and returns the
// stored value.
func (s *Store) AgreeSetting(ctx context.Context, name, value string) (string, error) {
	var stored string
	err := s.write(ctx, func(c *conn) error {
		if _, err := c.exec(qPutSetting, name, value); err != nil {
			return err
		}
		v, err := c.row(qSetting, name)
		if err != nil {
			return err
		}
		stored = text(v[0])
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("setting %s: %w", name, err)
	}
	return stored, nil
}

// Workspace reads a workspace.
func (s *Store) Workspace(ctx context.Context, id int64) (store.Workspace, error) {
	var w store.Workspace
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(qWorkspace, id)
		if err != nil {
			return err
		}
		w = store.Workspace{ID: i64(v[0]), Name: text(v[1]), CreatedAt: msTime(v[2])}
		return nil
	})
	if err != nil {
		return store.Workspace{}, fmt.Errorf("reading workspace %d: %w", id, mapErr(err))
	}
	return w, nil
}

// CreateWorkflow inserts w unpublished; zero times are now.
func (s *Store) CreateWorkflow(ctx context.Context, w store.Workflow) (store.Workflow, error) {
	w.CreatedAt = fromMs(msOrNow(w.CreatedAt))
	if w.UpdatedAt.IsZero() {
		w.UpdatedAt = w.CreatedAt
	}
	w.UpdatedAt, w.PublishedVersion = fromMs(ms(w.UpdatedAt)), 0
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qInsWorkflow, w.WorkspaceID, w.Name, w.Description, jsonText(w.Draft),
			w.FailureResponse, w.NotifyOnFailure, ms(w.CreatedAt), ms(w.UpdatedAt))
		w.ID = i64(v0(v))
		return err
	})
	if err != nil {
		return store.Workflow{}, fmt.Errorf("creating workflow in workspace %d: %w", w.WorkspaceID, mapErr(err))
	}
	return w, nil
}

// Workflow reads a workflow of ws.
func (s *Store) Workflow(ctx context.Context, ws, id int64) (store.Workflow, error) {
	var w store.Workflow
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(qWorkflow, id, ws)
		if err != nil {
			return err
		}
		w = store.Workflow{ID: i64(v[0]), WorkspaceID: i64(v[1]), Name: text(v[2]),
			Description: text(v[3]), Draft: doc(v[4]), PublishedVersion: int(i64(v[5])),
			FailureResponse: text(v[6]), NotifyOnFailure: text(v[7]),
			CreatedAt: msTime(v[8]), UpdatedAt: msTime(v[9])}
		return nil
	})
	if err != nil {
		return store.Workflow{}, fmt.Errorf("reading workflow %d: %w", id, mapErr(err))
	}
	return w, nil
}

// SaveDraft replaces a workflow's draft.
func (s *Store) SaveDraft(ctx context.Context, ws, id int64, draft json.RawMessage) error {
	err := s.write(ctx, func(c *conn) error {
		n, err := c.exec(qUpdDraft, jsonText(draft), msOrNow(time.Time{}), id, ws)
		return oneRow(n, err)
	})
	if err != nil {
		return fmt.Errorf("saving draft of workflow %d: %w", id, err)
	}
	return nil
}

// Publish stores graph as the next version unless it equals the current one.
func (s *Store) Publish(ctx context.Context, ws, id int64, graph json.RawMessage, by string) (store.WorkflowVersion, error) {
	v := store.WorkflowVersion{WorkflowID: id, WorkspaceID: ws}
	err := s.write(ctx, func(c *conn) error {
		row, err := c.row(qPublishedOf, id, ws)
		if err != nil {
			return mapErr(err)
		}
		current := int(i64(row[0]))
		if current > 0 {
			row, err := c.row(qVersionGraph, id, current)
			if err != nil {
				return fmt.Errorf("reading version %d: %w", current, err)
			}
			same, err := canon.Equal([]byte(text(row[0])), graph)
			if err != nil {
				return err
			}
			if same {
				v.Number, v.Graph, v.PublishedAt, v.PublishedBy = current, doc(row[0]), msTime(row[1]), text(row[2])
				return nil
			}
		} else if _, err := canon.Bytes(graph); err != nil {
			return err
		}
		now := msOrNow(time.Time{})
		v.Number, v.Graph, v.PublishedAt, v.PublishedBy = current+1, graph, fromMs(now), by
		if _, err := c.exec(qInsVersion, id, v.Number, ws, string(graph), now, by); err != nil {
			return mapErr(err)
		}
		_, err = c.exec(qSetPublished, v.Number, now, id)
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
	err := s.read(ctx, func(c *conn) error {
		row, err := c.row(qVersion, id, number, ws)
		if err != nil {
			return err
		}
		v.Graph, v.PublishedAt, v.PublishedBy = doc(row[0]), msTime(row[1]), text(row[2])
		return nil
	})
	if err != nil {
		return store.WorkflowVersion{}, fmt.Errorf("reading version %d of workflow %d: %w", number, id, mapErr(err))
	}
	return v, nil
}

// CreateAgent inserts a; its workflow, when set, must be ws's own.
func (s *Store) CreateAgent(ctx context.Context, a store.Agent) (store.Agent, error) {
	a.CreatedAt = fromMs(msOrNow(a.CreatedAt))
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qInsAgent, a.WorkspaceID, a.Name, a.Persona, a.DefaultModel,
			nullID(a.WorkflowID), ms(a.CreatedAt))
		a.ID = i64(v0(v))
		return err
	})
	if err != nil {
		return store.Agent{}, fmt.Errorf("creating agent in workspace %d: %w", a.WorkspaceID, mapErr(err))
	}
	return a, nil
}

// Agent reads an agent of ws.
func (s *Store) Agent(ctx context.Context, ws, id int64) (store.Agent, error) {
	var a store.Agent
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(qAgent, id, ws)
		if err != nil {
			return err
		}
		a = scanAgent(v)
		return nil
	})
	if err != nil {
		return store.Agent{}, fmt.Errorf("reading agent %d: %w", id, mapErr(err))
	}
	return a, nil
}

// scanAgent reads agentCols.
func scanAgent(v []driver.Value) store.Agent {
	return store.Agent{ID: i64(v[0]), WorkspaceID: i64(v[1]), Name: text(v[2]), Persona: text(v[3]),
		DefaultModel: text(v[4]), WorkflowID: i64(v[5]), CreatedAt: msTime(v[6])}
}

// v0 is a returned row's first value, or nil when there is no row.
func v0(row []driver.Value) driver.Value {
	if len(row) == 0 {
		return nil
	}
	return row[0]
}

// oneRow turns a change that matched no row into ErrNotFound.
func oneRow(n int64, err error) error {
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}
