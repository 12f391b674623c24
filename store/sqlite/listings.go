package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"math"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// Listing and settings statements. A page is the rows with an id below
// the cursor, newest first: keyset pagination, so a page costs the same
// however deep it is and rows added meanwhile never shift it. A filter
// whose parameter is 0 or empty is off.
const (
	updWorkflowSQL = `UPDATE workflows SET name = coalesce(?1, name),
		description = coalesce(?2, description), failure_response = coalesce(?3, failure_response),
		notify_on_failure = coalesce(?4, notify_on_failure), updated_at = ?5
		WHERE id = ?6 AND workspace_id = ?7 RETURNING ` + workflowCols
	versionsSQL = `SELECT number, graph, published_at, published_by FROM workflow_versions
		WHERE workflow_id = ? AND workspace_id = ? ORDER BY number DESC`
	// A workflow attached must be the workspace's own; 0 detaches.
	updAgentSQL = `UPDATE agents SET name = coalesce(?1, name), persona = coalesce(?2, persona),
		default_model = coalesce(?3, default_model),
		workflow_id = CASE WHEN ?4 IS NULL THEN workflow_id ELSE nullif(?4, 0) END
		WHERE id = ?5 AND workspace_id = ?6
		AND (?4 IS NULL OR ?4 = 0 OR EXISTS (SELECT 1 FROM workflows WHERE id = ?4 AND workspace_id = ?6))
		RETURNING ` + agentCols
	sessionsSQL = `SELECT ` + sessionCols + ` FROM sessions
		WHERE workspace_id = ?1 AND id < ?2 AND (?3 = 0 OR agent_id = ?3) AND (?4 = '' OR status = ?4)
		ORDER BY id DESC LIMIT ?5`
	// No index leads with workspace_id on runs, which every turn writes:
	// this walks the table from its newest rowid back (see migration 0003).
	runsWSSQL = `SELECT ` + runCols + ` FROM runs
		WHERE workspace_id = ?1 AND id < ?2 AND (?3 = 0 OR workflow_id = ?3) AND (?4 = '' OR status = ?4)
		ORDER BY id DESC LIMIT ?5`
	runsOfSessionSQL = `SELECT ` + runCols + ` FROM runs
		WHERE session_id = ?1 AND workspace_id = ?2 AND id < ?3 AND (?4 = 0 OR workflow_id = ?4)
		AND (?5 = '' OR status = ?5) ORDER BY id DESC LIMIT ?6`
)

// scanWorkflow reads workflowCols.
func scanWorkflow(v []driver.Value) (store.Workflow, error) {
	return store.Workflow{ID: i64(v[0]), WorkspaceID: i64(v[1]), Name: text(v[2]),
		Description: text(v[3]), Draft: doc(v[4]), PublishedVersion: int(i64(v[5])),
		FailureResponse: text(v[6]), NotifyOnFailure: text(v[7]),
		CreatedAt: msTime(v[8]), UpdatedAt: msTime(v[9])}, nil
}

// Workflows lists ws's workflows in id order.
func (s *Store) Workflows(ctx context.Context, ws int64) ([]store.Workflow, error) {
	out, err := readList(ctx, s, scanWorkflow, qWorkflows, ws)
	if err != nil {
		return nil, fmt.Errorf("listing workflows of workspace %d: %w", ws, err)
	}
	return out, nil
}

// UpdateWorkflow changes the settings set in u; with none set it only reads.
func (s *Store) UpdateWorkflow(ctx context.Context, ws, id int64, u store.WorkflowSettings) (store.Workflow, error) {
	if err := check.WorkflowSettings(&u); err != nil {
		return store.Workflow{}, fmt.Errorf("updating workflow %d: %w", id, err)
	}
	if u == (store.WorkflowSettings{}) {
		return s.Workflow(ctx, ws, id)
	}
	var w store.Workflow
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qUpdWorkflow, optText(u.Name), optText(u.Description), optText(u.FailureResponse),
			optText(u.NotifyOnFailure), msOrNow(time.Time{}), id, ws)
		if err == nil {
			w, err = scanWorkflow(v)
		}
		return err
	})
	if err != nil {
		return store.Workflow{}, fmt.Errorf("updating workflow %d: %w", id, mapErr(err))
	}
	return w, nil
}

// WorkflowVersions lists a workflow's versions, newest first.
func (s *Store) WorkflowVersions(ctx context.Context, ws, workflowID int64) ([]store.WorkflowVersion, error) {
	scan := func(v []driver.Value) (store.WorkflowVersion, error) {
		return store.WorkflowVersion{WorkflowID: workflowID, WorkspaceID: ws, Number: int(i64(v[0])),
			Graph: doc(v[1]), PublishedAt: msTime(v[2]), PublishedBy: text(v[3])}, nil
	}
	out, err := readListOf(ctx, s, scan, qVersions, []any{workflowID, ws}, ws, qWorkflowIn, workflowID)
	if err != nil {
		return nil, fmt.Errorf("listing versions of workflow %d: %w", workflowID, err)
	}
	return out, nil
}

// Agents lists ws's agents in id order.
func (s *Store) Agents(ctx context.Context, ws int64) ([]store.Agent, error) {
	out, err := readList(ctx, s, noErr(scanAgent), qAgents, ws)
	if err != nil {
		return nil, fmt.Errorf("listing agents of workspace %d: %w", ws, err)
	}
	return out, nil
}

// UpdateAgent changes the settings set in u; with none set it only reads.
func (s *Store) UpdateAgent(ctx context.Context, ws, id int64, u store.AgentSettings) (store.Agent, error) {
	if err := check.AgentSettings(&u); err != nil {
		return store.Agent{}, fmt.Errorf("updating agent %d: %w", id, err)
	}
	if u == (store.AgentSettings{}) {
		return s.Agent(ctx, ws, id)
	}
	var wf any
	if u.WorkflowID != nil {
		wf = *u.WorkflowID
	}
	var a store.Agent
	err := s.write(ctx, func(c *conn) error {
		v, err := c.row(qUpdAgent, optText(u.Name), optText(u.Persona), optText(u.DefaultModel), wf, id, ws)
		if err == nil {
			a = scanAgent(v)
		}
		return err
	})
	if err != nil {
		// No row: the agent, or the workflow attached, is not ws's.
		return store.Agent{}, fmt.Errorf("updating agent %d: %w", id, mapErr(err))
	}
	return a, nil
}

// Sessions lists one page of ws's sessions, newest first.
func (s *Store) Sessions(ctx context.Context, ws int64, q store.SessionQuery) ([]store.Session, error) {
	if err := check.SessionQuery(&q); err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	out, err := readListOf(ctx, s, noErr(scanSession), qSessions,
		[]any{ws, cursor(q.BeforeID), q.AgentID, q.Status, q.Limit}, ws, qAgentIn, q.AgentID)
	if err != nil {
		return nil, fmt.Errorf("listing sessions of workspace %d: %w", ws, err)
	}
	return out, nil
}

// Runs lists one page of ws's runs, newest first.
func (s *Store) Runs(ctx context.Context, ws int64, q store.RunQuery) ([]store.Run, error) {
	if err := check.RunQuery(&q); err != nil {
		return nil, fmt.Errorf("listing runs: %w", err)
	}
	var out []store.Run
	err := s.read(ctx, func(c *conn) error {
		var err error
		if q.SessionID != 0 {
			out, err = collect(c, noErr(scanRun), qRunsOfSession, q.SessionID, ws, cursor(q.BeforeID),
				q.WorkflowID, q.Status, q.Limit)
		} else {
			out, err = collect(c, noErr(scanRun), qRunsWS, ws, cursor(q.BeforeID), q.WorkflowID, q.Status, q.Limit)
		}
		if err == nil && len(out) == 0 {
			err = owns(c, ws, qSessionIn, q.SessionID)
			if err == nil {
				err = owns(c, ws, qWorkflowIn, q.WorkflowID)
			}
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing runs of workspace %d: %w", ws, err)
	}
	return out, nil
}

// cursor is the id a page starts below: BeforeID, or past every id.
func cursor(beforeID int64) int64 {
	if beforeID == 0 {
		return math.MaxInt64
	}
	return beforeID
}

// optText binds an optional setting: nil is NULL, which leaves the column.
func optText(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}
