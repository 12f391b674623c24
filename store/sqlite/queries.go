package sqlite

// query names one SQL statement; each connection prepares it once.
type query int

const (
	qBegin query = iota
	qBeginRead
	qCommit
	qRollback
	qSavepoint
	qRelease
	qRollbackTo
	qMigrations
	qRecordMigration

	qInsWorkspace
	qInsWorkflow
	qUpdDraft
	qPublishedOf
	qVersionGraph
	qInsVersion
	qSetPublished
	qInsAgent
	qInsSession
	qSetIdentity
	qEndSession
	qCancelWait
	qSessionIn
	qSessionStatus
	qClaimWait
	qWaitByID
	qInsRun
	qInsMessage
	qAppendMessage
	qFinishRun
	qRunIn
	qCloseWait
	qWaitIn
	qInsWait
	qExpireWait
	qSettledThrough
	qRecoverRuns
	qMarkSettled

	qWorkspace
	qWorkflow
	qVersion
	qAgent
	qSession
	qMessages
	qMessagesAfter
	qRun
	qRunsBySession
	qOpenWait
	qPendingWS
	qPendingSession
	qTurnHead

	// API keys (keys.go).
	qInsAPIKey
	qAPIKeyByHash
	qAPIKeys
	qRevokeAPIKey
	qTouchAPIKey
	qAPIKeyIn

	// Listings and settings (listings.go).
	qWorkflows
	qUpdWorkflow
	qWorkflowIn
	qVersions
	qAgents
	qUpdAgent
	qAgentIn
	qSessions
	qRunsWS
	qRunsOfSession

	// Custom actions and MCP connectors (actions.go).
	qPutAction
	qAction
	qActions
	qDelAction
	qPutConnector
	qConnector
	qConnectors
	qDelConnector

	// The outbound queue (outbound.go).
	qInsOutbound
	qClaimOutbound
	qFinishOutbound
	qOutboundIn
	qOutboundByRun

	// The event log (events.go).
	qBumpEventSeq
	qInsEvent
	qEventsAfter
	qPruneEvents
	qLastEventSeq
	qCountOpenWaits
	// Model configurations (models.go).
	qModelConfig
	qPutModelConfig
	qModelUsage
	qAddModelUsage

	// Artifacts (artifacts.go).
	qInsArtifact
	qInsNotification
	qAnyWorkspace
	qPutSetting
	qSetting
	qNotifications
	qMarkRead
	qArtifact
	qArtifactInfo

	numQueries
)

// Column lists, in the order the scan helpers read them.
const (
	workflowCols = `id, workspace_id, name, description, draft, published_version,
		failure_response, notify_on_failure, created_at, updated_at`
	agentCols   = `id, workspace_id, name, persona, default_model, workflow_id, created_at`
	sessionCols = `id, workspace_id, agent_id, identity, status, client_external_id,
		channel, created_at, ended_at, parent_session_id`
	messageCols = `id, workspace_id, session_id, role, text, mood, run_id, turn_complete, created_at`
	runCols     = `id, workspace_id, session_id, workflow_id, version, status,
		resumed_from_run_id, node_trace, error, error_code, started_at, finished_at`
	waitCols = `id, workspace_id, session_id, run_id, node_id, kind, resume_on,
		state, identity, status, expires_at, created_at`
)

var queries = [numQueries]string{
	// IMMEDIATE takes the write lock at once: a transaction never fails
	// halfway with SQLITE_BUSY, it waits (busy timeout) before starting.
	qBegin: `BEGIN IMMEDIATE`,
	// A read transaction: its statements see one snapshot.
	qBeginRead: `BEGIN`,
	qCommit:    `COMMIT`,
	qRollback:  `ROLLBACK`,
	// Each write of a group commit runs inside its own savepoint, so that
	// one that fails is undone alone.
	qSavepoint:  `SAVEPOINT w`,
	qRelease:    `RELEASE w`,
	qRollbackTo: `ROLLBACK TO w`,

	qMigrations:      `SELECT version FROM schema_migrations`,
	qRecordMigration: `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,

	qInsWorkspace: `INSERT INTO workspaces (name, created_at) VALUES (?, ?) RETURNING id`,
	qInsWorkflow: `INSERT INTO workflows (workspace_id, name, description, draft,
		published_version, failure_response, notify_on_failure, created_at, updated_at)
		VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?) RETURNING id`,
	qUpdDraft:     `UPDATE workflows SET draft = ?, updated_at = ? WHERE id = ? AND workspace_id = ?`,
	qPublishedOf:  `SELECT published_version FROM workflows WHERE id = ? AND workspace_id = ?`,
	qVersionGraph: `SELECT graph, published_at, published_by FROM workflow_versions WHERE workflow_id = ? AND number = ?`,
	qInsVersion: `INSERT INTO workflow_versions (workflow_id, number, workspace_id, graph,
		published_at, published_by) VALUES (?, ?, ?, ?, ?, ?)`,
	qSetPublished: `UPDATE workflows SET published_version = ?, updated_at = ? WHERE id = ?`,
	// The workflow, when given, must be the workspace's own.
	qInsAgent: `INSERT INTO agents (workspace_id, name, persona, default_model, workflow_id, created_at)
		SELECT ?1, ?2, ?3, ?4, ?5, ?6
		WHERE ?5 IS NULL OR EXISTS (SELECT 1 FROM workflows WHERE id = ?5 AND workspace_id = ?1)
		RETURNING id`,
	// The agent must be the workspace's own, and so must a parent session.
	qInsSession: `INSERT INTO sessions (workspace_id, agent_id, identity, status,
		client_external_id, channel, created_at, parent_session_id)
		SELECT ?1, ?2, ?3, 'OPEN', ?4, ?5, ?6, ?7
		WHERE EXISTS (SELECT 1 FROM agents WHERE id = ?2 AND workspace_id = ?1)
		AND (?7 IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id = ?7 AND workspace_id = ?1))
		RETURNING id`,
	qSetIdentity: `UPDATE sessions SET identity = ?3 WHERE id = ?1 AND workspace_id = ?2 AND identity <> ?3`,
	qEndSession: `UPDATE sessions SET status = 'ENDED', ended_at = ?3
		WHERE id = ?1 AND workspace_id = ?2 AND status = 'OPEN'`,
	qCancelWait:    `UPDATE waits SET status = 'CANCELLED' WHERE session_id = ? AND status = 'OPEN'`,
	qSessionIn:     `SELECT 1 FROM sessions WHERE id = ? AND workspace_id = ?`,
	qSessionStatus: `SELECT status FROM sessions WHERE id = ? AND workspace_id = ?`,
	qClaimWait: `UPDATE waits SET status = ?1
		WHERE id = ?2 AND workspace_id = ?3 AND session_id = ?4 AND status = 'OPEN'`,
	// The session, the workflow and the run resumed from must all be the
	// workspace's own (the resumed run the same session's); when one is
	// not, nothing is inserted and no row comes back.
	qInsRun: `INSERT INTO runs (workspace_id, session_id, workflow_id, version, status,
		resumed_from_run_id, node_trace, error, error_code, started_at)
		SELECT ?1, ?2, ?3, ?4, 'RUNNING', ?5, ?6, '', '', ?7
		WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ?2 AND workspace_id = ?1 AND status = 'OPEN')
		AND (?3 IS NULL OR EXISTS (SELECT 1 FROM workflows WHERE id = ?3 AND workspace_id = ?1))
		AND (?5 IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = ?5 AND session_id = ?2))`,
	qInsMessage: `INSERT INTO messages (workspace_id, session_id, role, text, mood, run_id,
		turn_complete, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
	// A message outside a run: the session must be the workspace's own,
	// and a run it names that session's.
	qAppendMessage: `INSERT INTO messages (workspace_id, session_id, role, text, mood, run_id,
		turn_complete, created_at)
		SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
		WHERE EXISTS (SELECT 1 FROM sessions WHERE id = ?2 AND workspace_id = ?1)
		AND (?6 IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = ?6 AND session_id = ?2))
		RETURNING id`,
	qFinishRun: `UPDATE runs SET status = ?, node_trace = ?, error = ?, error_code = ?, finished_at = ?
		WHERE id = ? AND workspace_id = ? AND status = 'RUNNING' RETURNING session_id`,
	qRunIn: `SELECT 1 FROM runs WHERE id = ? AND workspace_id = ?`,
	qCloseWait: `UPDATE waits SET status = ?1
		WHERE id = ?2 AND workspace_id = ?3 AND session_id = ?4 AND status = 'OPEN'`,
	qWaitIn: `SELECT 1 FROM waits WHERE id = ? AND workspace_id = ? AND session_id = ?`,
	// A wait left by a run whose session ended while it ran is born
	// CANCELLED: ending a session cancels its waits "on every path".
	qInsWait: `INSERT INTO waits (workspace_id, session_id, run_id, node_id, kind, resume_on,
		state, identity, status, expires_at, created_at, snapshot)
		SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,
		CASE WHEN (SELECT status FROM sessions WHERE id = ?2) = 'OPEN' THEN 'OPEN' ELSE 'CANCELLED' END,
		?9, ?10, ?11`,
	qExpireWait:     `UPDATE waits SET status = 'EXPIRED' WHERE id = ? AND status = 'OPEN' AND expires_at <= ?`,
	qSettledThrough: `SELECT settled_through FROM run_recovery WHERE id = 1`,
	qRecoverRuns: `UPDATE runs SET status = 'FAILED', error = ?, error_code = 'PROCESS_STOPPED',
		finished_at = ? WHERE id > ? AND status = 'RUNNING'`,
	qMarkSettled: `INSERT INTO run_recovery (id, settled_through)
		VALUES (1, (SELECT coalesce(max(id), 0) FROM runs))
		ON CONFLICT (id) DO UPDATE SET settled_through = excluded.settled_through`,

	qWorkspace: `SELECT id, name, created_at FROM workspaces WHERE id = ?`,
	qWorkflow:  `SELECT ` + workflowCols + ` FROM workflows WHERE id = ? AND workspace_id = ?`,
	qVersion: `SELECT graph, published_at, published_by FROM workflow_versions
		WHERE workflow_id = ? AND number = ? AND workspace_id = ?`,
	qAgent:   `SELECT ` + agentCols + ` FROM agents WHERE id = ? AND workspace_id = ?`,
	qSession: `SELECT ` + sessionCols + ` FROM sessions WHERE id = ? AND workspace_id = ?`,
	qMessages: `SELECT ` + messageCols + ` FROM messages
		WHERE session_id = ? AND workspace_id = ? ORDER BY id`,
	qMessagesAfter: `SELECT ` + messageCols + ` FROM messages
		WHERE session_id = ? AND workspace_id = ? AND id > ? ORDER BY id`,
	qRun: `SELECT ` + runCols + ` FROM runs WHERE id = ? AND workspace_id = ?`,
	qRunsBySession: `SELECT ` + runCols + ` FROM runs
		WHERE session_id = ? AND workspace_id = ? ORDER BY id`,
	qWaitByID: `SELECT ` + waitCols + `, snapshot FROM waits WHERE id = ? AND workspace_id = ?`,
	qOpenWait: `SELECT ` + waitCols + `, snapshot FROM waits
		WHERE session_id = ? AND workspace_id = ? AND status = 'OPEN' AND resume_on = 'reply'`,
	qPendingWS: `SELECT ` + waitCols + ` FROM waits INDEXED BY waits_open_kind
		WHERE workspace_id = ? AND kind = ? AND status = 'OPEN' AND (expires_at IS NULL OR expires_at > ?)
		ORDER BY id`,
	qPendingSession: `SELECT ` + waitCols + ` FROM waits
		WHERE session_id = ? AND workspace_id = ? AND kind = ? AND status = 'OPEN'
		AND (expires_at IS NULL OR expires_at > ?) ORDER BY id`,
	// TurnState's session, agent, workflow (NULLs when the agent has none;
	// never the draft) and open wait with its snapshot (NULLs when none),
	// in one row.
	qTurnHead: `SELECT s.id, s.workspace_id, s.agent_id, s.identity, s.status,
		s.client_external_id, s.channel, s.created_at, s.ended_at,
		a.id, a.workspace_id, a.name, a.persona, a.default_model, a.workflow_id, a.created_at,
		f.id, f.workspace_id, f.name, f.description, f.published_version,
		f.failure_response, f.notify_on_failure, f.created_at, f.updated_at,
		w.id, w.workspace_id, w.session_id, w.run_id, w.node_id, w.kind, w.resume_on,
		w.state, w.identity, w.status, w.expires_at, w.created_at, w.snapshot,
		s.parent_session_id
		FROM sessions s
		JOIN agents a ON a.id = s.agent_id
		LEFT JOIN workflows f ON f.id = a.workflow_id
		LEFT JOIN waits w ON w.session_id = s.id AND w.status = 'OPEN' AND w.resume_on = 'reply'
		WHERE s.id = ? AND s.workspace_id = ?`,

	qInsAPIKey:    insAPIKeySQL,
	qAPIKeyByHash: `SELECT ` + apiKeyCols + ` FROM api_keys WHERE hash = ? AND revoked_at IS NULL`,
	qAPIKeys:      apiKeysSQL,
	qRevokeAPIKey: revokeAPIKeySQL,
	qTouchAPIKey:  touchAPIKeySQL,
	qAPIKeyIn:     `SELECT 1 FROM api_keys WHERE id = ? AND workspace_id = ?`,

	qWorkflows:     `SELECT ` + workflowCols + ` FROM workflows WHERE workspace_id = ? ORDER BY id`,
	qUpdWorkflow:   updWorkflowSQL,
	qWorkflowIn:    `SELECT 1 FROM workflows WHERE id = ? AND workspace_id = ?`,
	qVersions:      versionsSQL,
	qAgents:        `SELECT ` + agentCols + ` FROM agents WHERE workspace_id = ? ORDER BY id`,
	qUpdAgent:      updAgentSQL,
	qAgentIn:       `SELECT 1 FROM agents WHERE id = ? AND workspace_id = ?`,
	qSessions:      sessionsSQL,
	qRunsWS:        runsWSSQL,
	qRunsOfSession: runsOfSessionSQL,

	qPutAction:    putActionSQL,
	qAction:       `SELECT ` + actionCols + ` FROM custom_actions WHERE workspace_id = ? AND id = ?`,
	qActions:      `SELECT ` + actionCols + ` FROM custom_actions WHERE workspace_id = ? ORDER BY id`,
	qDelAction:    `DELETE FROM custom_actions WHERE workspace_id = ? AND id = ?`,
	qPutConnector: putConnectorSQL,
	qConnector:    `SELECT ` + connectorCols + ` FROM mcp_connectors WHERE workspace_id = ? AND id = ?`,
	qConnectors:   `SELECT ` + connectorCols + ` FROM mcp_connectors WHERE workspace_id = ? ORDER BY id`,
	qDelConnector: `DELETE FROM mcp_connectors WHERE workspace_id = ? AND id = ?`,

	qInsOutbound:    insOutboundSQL,
	qClaimOutbound:  claimOutboundSQL,
	qFinishOutbound: finishOutboundSQL,
	qOutboundIn:     `SELECT 1 FROM outbound WHERE id = ?`,
	qOutboundByRun:  `SELECT ` + outboundCols + ` FROM outbound WHERE run_id = ? AND workspace_id = ? ORDER BY id`,

	qBumpEventSeq: bumpEventSeqSQL,
	qInsEvent:     insEventSQL,
	qEventsAfter:  eventsAfterSQL,
	qPruneEvents:  pruneEventsSQL,
	qLastEventSeq: `SELECT event_seq FROM sessions WHERE id = ? AND workspace_id = ?`,
	// Only the open waits are in waits_open_kind.
	qCountOpenWaits: `SELECT count(*) FROM waits INDEXED BY waits_open_kind
		WHERE status = 'OPEN' AND (expires_at IS NULL OR expires_at > ?)`,

	qInsArtifact:     insArtifactSQL,
	qInsNotification: insNotificationSQL,
	qAnyWorkspace:    `SELECT 1 FROM workspaces LIMIT 1`,
	qPutSetting:      `INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
	qSetting:         `SELECT value FROM settings WHERE name = ?`,
	qNotifications: `SELECT ` + notificationCols + ` FROM notifications
		WHERE workspace_id = ?1 AND (NOT ?2 OR read_at IS NULL) ORDER BY id DESC LIMIT ?3`,
	qMarkRead: `UPDATE notifications SET read_at = ?1
		WHERE workspace_id = ?2 AND read_at IS NULL AND id IN (SELECT value FROM json_each(?3))`,
	qArtifact:       `SELECT ` + artifactCols + ` FROM artifacts WHERE id = ? AND workspace_id = ?`,
	qArtifactInfo:   `SELECT ` + artifactInfo + ` FROM artifacts WHERE id = ? AND workspace_id = ?`,
	qModelConfig:    `SELECT version, config, updated_at FROM model_configs WHERE workspace_id = ?`,
	qPutModelConfig: putModelConfigSQL,
	qModelUsage:     `SELECT tokens, cost FROM model_usage WHERE workspace_id = ? AND day = ?`,
	qAddModelUsage: `INSERT INTO model_usage (workspace_id, day, tokens, cost) VALUES (?1, ?2, ?3, ?4)
		ON CONFLICT (workspace_id, day) DO UPDATE SET tokens = tokens + excluded.tokens, cost = cost + excluded.cost`,
}
