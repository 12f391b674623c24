package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

const (
	workflowCols = `id, workspace_id, name, description, draft, published_version,
		failure_response, notify_on_failure, created_at, updated_at`
	agentCols   = `id, workspace_id, name, persona, default_model, coalesce(workflow_id, 0), created_at`
	sessionCols = `id, workspace_id, agent_id, identity, status, client_external_id, channel, created_at, ended_at,
		coalesce(parent_session_id, 0)`
)

// scanWorkflow reads workflowCols.
func scanWorkflow(r scanner) (store.Workflow, error) {
	var w store.Workflow
	var draft []byte
	err := r.Scan(&w.ID, &w.WorkspaceID, &w.Name, &w.Description, &draft, &w.PublishedVersion,
		&w.FailureResponse, &w.NotifyOnFailure, &w.CreatedAt, &w.UpdatedAt)
	w.Draft, w.CreatedAt, w.UpdatedAt = rawJSON(draft), w.CreatedAt.UTC(), w.UpdatedAt.UTC()
	return w, err
}

// scanAgent reads agentCols.
func scanAgent(r scanner) (store.Agent, error) {
	var a store.Agent
	err := r.Scan(&a.ID, &a.WorkspaceID, &a.Name, &a.Persona, &a.DefaultModel, &a.WorkflowID, &a.CreatedAt)
	a.CreatedAt = a.CreatedAt.UTC()
	return a, err
}

// scanSession reads sessionCols.
func scanSession(r scanner) (store.Session, error) {
	var ss store.Session
	err := r.Scan(&ss.ID, &ss.WorkspaceID, &ss.AgentID, &ss.Identity, &ss.Status,
		&ss.ClientExternalID, &ss.Channel, &ss.CreatedAt, &ss.EndedAt, &ss.ParentSessionID)
	ss.CreatedAt, ss.EndedAt = ss.CreatedAt.UTC(), utcPtr(ss.EndedAt)
	return ss, err
}

// scanRun reads runCols.
func scanRun(r scanner) (store.Run, error) {
	var x runScan
	err := r.Scan(x.dest()...)
	return x.run(), err
}

// Workflows lists ws's workflows in id order.
func (s *Store) Workflows(ctx context.Context, ws int64) ([]store.Workflow, error) {
	out, err := list(ctx, s, scanWorkflow, `SELECT `+workflowCols+` FROM workflows
		WHERE workspace_id = $1 ORDER BY id`, ws)
	if err != nil {
		return nil, fmt.Errorf("listing workflows of workspace %d: %w", ws, err)
	}
	return out, nil
}

// UpdateWorkflow changes the settings set in u (NULL leaves a column as it
// is); with none set it only reads.
func (s *Store) UpdateWorkflow(ctx context.Context, ws, id int64, u store.WorkflowSettings) (store.Workflow, error) {
	if err := check.WorkflowSettings(&u); err != nil {
		return store.Workflow{}, fmt.Errorf("updating workflow %d: %w", id, err)
	}
	if u == (store.WorkflowSettings{}) {
		return s.Workflow(ctx, ws, id)
	}
	w, err := readOne(ctx, s, scanWorkflow, `UPDATE workflows SET name = coalesce($1, name),
		description = coalesce($2, description), failure_response = coalesce($3, failure_response),
		notify_on_failure = coalesce($4, notify_on_failure), updated_at = $5
		WHERE id = $6 AND workspace_id = $7 RETURNING `+workflowCols,
		u.Name, u.Description, u.FailureResponse, u.NotifyOnFailure, orNow(time.Time{}), id, ws)
	if err != nil {
		return store.Workflow{}, fmt.Errorf("updating workflow %d: %w", id, err)
	}
	return w, nil
}

// WorkflowVersions lists a workflow's versions, newest first.
func (s *Store) WorkflowVersions(ctx context.Context, ws, workflowID int64) ([]store.WorkflowVersion, error) {
	scan := func(r scanner) (store.WorkflowVersion, error) {
		v := store.WorkflowVersion{WorkflowID: workflowID, WorkspaceID: ws}
		var graph []byte
		err := r.Scan(&v.Number, &graph, &v.PublishedAt, &v.PublishedBy)
		v.Graph, v.PublishedAt = graph, v.PublishedAt.UTC()
		return v, err
	}
	out, err := listOf(ctx, s, scan, `SELECT number, graph, published_at, published_by FROM workflow_versions
		WHERE workflow_id = $1 AND workspace_id = $2 ORDER BY number DESC`, []any{workflowID, ws},
		ws, workflowInSQL, workflowID)
	if err != nil {
		return nil, fmt.Errorf("listing versions of workflow %d: %w", workflowID, err)
	}
	return out, nil
}

// Agents lists ws's agents in id order.
func (s *Store) Agents(ctx context.Context, ws int64) ([]store.Agent, error) {
	out, err := list(ctx, s, scanAgent, `SELECT `+agentCols+` FROM agents WHERE workspace_id = $1 ORDER BY id`, ws)
	if err != nil {
		return nil, fmt.Errorf("listing agents of workspace %d: %w", ws, err)
	}
	return out, nil
}

// UpdateAgent changes the settings set in u; a workflow attached must be
// ws's own, and 0 detaches. With none set it only reads.
func (s *Store) UpdateAgent(ctx context.Context, ws, id int64, u store.AgentSettings) (store.Agent, error) {
	if err := check.AgentSettings(&u); err != nil {
		return store.Agent{}, fmt.Errorf("updating agent %d: %w", id, err)
	}
	if u == (store.AgentSettings{}) {
		return s.Agent(ctx, ws, id)
	}
	a, err := readOne(ctx, s, scanAgent, `UPDATE agents SET name = coalesce($1, name),
		persona = coalesce($2, persona), default_model = coalesce($3, default_model),
		workflow_id = CASE WHEN $4::bigint IS NULL THEN workflow_id ELSE nullif($4::bigint, 0) END
		WHERE id = $5 AND workspace_id = $6
		AND ($4::bigint IS NULL OR $4::bigint = 0
			OR EXISTS (SELECT 1 FROM workflows WHERE id = $4::bigint AND workspace_id = $6))
		RETURNING `+agentCols, u.Name, u.Persona, u.DefaultModel, u.WorkflowID, id, ws)
	if err != nil {
		// No row: the agent, or the workflow attached, is not ws's.
		return store.Agent{}, fmt.Errorf("updating agent %d: %w", id, err)
	}
	return a, nil
}

// page builds a listing's WHERE from the filters that are set, so each
// combination gets a plan of its own (pgx prepares each text once), with
// keyset pagination on id, newest first.
type page struct {
	where []string
	args  []any
}

// and adds a condition; its one placeholder is written as $?.
func (p *page) and(cond string, arg any) {
	p.args = append(p.args, arg)
	p.where = append(p.where, strings.Replace(cond, "$?", "$"+strconv.Itoa(len(p.args)), 1))
}

// sql is the statement for columns of table.
func (p *page) sql(cols, table string, beforeID int64, limit int) string {
	if beforeID != 0 {
		p.and("id < $?", beforeID)
	}
	p.args = append(p.args, limit)
	return `SELECT ` + cols + ` FROM ` + table + ` WHERE ` + strings.Join(p.where, " AND ") +
		` ORDER BY id DESC LIMIT $` + strconv.Itoa(len(p.args))
}

// Sessions lists one page of ws's sessions, newest first.
func (s *Store) Sessions(ctx context.Context, ws int64, q store.SessionQuery) ([]store.Session, error) {
	if err := check.SessionQuery(&q); err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	var p page
	p.and("workspace_id = $?", ws)
	if q.AgentID != 0 {
		p.and("agent_id = $?", q.AgentID)
	}
	if q.Status != "" {
		p.and("status = $?", q.Status)
	}
	sql := p.sql(sessionCols, "sessions", q.BeforeID, q.Limit)
	out, err := listOf(ctx, s, scanSession, sql, p.args, ws, agentInSQL, q.AgentID)
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
	var p page
	p.and("workspace_id = $?", ws)
	if q.SessionID != 0 {
		p.and("session_id = $?", q.SessionID)
	}
	if q.WorkflowID != 0 {
		p.and("workflow_id = $?", q.WorkflowID)
	}
	if q.Status != "" {
		p.and("status = $?", q.Status)
	}
	sql := p.sql(runCols, "runs", q.BeforeID, q.Limit)
	var out []store.Run
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		var err error
		out, err = queryList(ctx, c, scanRun, sql, p.args...)
		if err == nil && len(out) == 0 {
			if err = owns(ctx, c, ws, sessionInSQL, q.SessionID); err == nil {
				err = owns(ctx, c, ws, workflowInSQL, q.WorkflowID)
			}
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing runs of workspace %d: %w", ws, err)
	}
	return out, nil
}
