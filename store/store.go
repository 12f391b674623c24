// Package store declares everything Wetel persists, as one interface with
// sentinel errors. Drivers (store/sqlite, store/postgres) implement it and
// run the one conformance suite in store/storetest. Every row carries its
// workspace, and every method that reads or writes a workspace's data takes
// the workspace id and never returns another workspace's rows.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Sentinel errors; drivers wrap them, callers test with errors.Is.
var (
	// ErrNotFound: no row with that id in that workspace.
	ErrNotFound = errors.New("not found")
	// ErrWaitExists: the session already holds an OPEN wait. The database
	// enforces it (a unique partial index), so two racing turns cannot both
	// open one.
	ErrWaitExists = errors.New("the session already has an open question")
	// ErrConflict: a write raced another and lost (a stale status change).
	ErrConflict = errors.New("conflict")
	// ErrInvalid: an input breaks a rule of the contract (an empty name, an
	// unknown role, a limit out of range). The message names the field, so
	// the API can answer VALIDATION with it as it is.
	ErrInvalid = errors.New("invalid input")
)

// Run statuses as stored.
const (
	RunRunning          = "RUNNING"
	RunCompleted        = "COMPLETED"
	RunFailed           = "FAILED"
	RunAwaitingInput    = "AWAITING_INPUT"
	RunAwaitingApproval = "AWAITING_APPROVAL"
	RunInterrupted      = "INTERRUPTED"
)

// Wait statuses.
const (
	WaitOpen      = "OPEN"
	WaitAnswered  = "ANSWERED"
	WaitExpired   = "EXPIRED"
	WaitCancelled = "CANCELLED"
)

// Session statuses.
const (
	SessionOpen  = "OPEN"
	SessionEnded = "ENDED"
)

// Workspace is a tenant.
type Workspace struct {
	ID        int64
	Name      string
	CreatedAt time.Time
}

// Workflow is an authored graph: a draft and, once published, a current version.
type Workflow struct {
	ID               int64
	WorkspaceID      int64
	Name             string
	Description      string
	Draft            json.RawMessage // the draft graph document
	PublishedVersion int             // 0 when never published
	FailureResponse  string
	NotifyOnFailure  string // NONE or OWNERS
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// WorkflowVersion is one published graph, numbered from 1.
type WorkflowVersion struct {
	WorkflowID  int64
	WorkspaceID int64
	Number      int
	Graph       json.RawMessage
	PublishedAt time.Time
	PublishedBy string
}

// Agent pairs a persona with a workflow.
type Agent struct {
	ID           int64
	WorkspaceID  int64
	Name         string
	Persona      string
	DefaultModel string
	WorkflowID   int64 // 0 when none is attached
	CreatedAt    time.Time
}

// Session is one conversation with an agent.
type Session struct {
	ID               int64
	WorkspaceID      int64
	AgentID          int64
	Identity         string // the signed-in identity; "" for none
	Status           string
	ClientExternalID string
	Channel          string
	CreatedAt        time.Time
	EndedAt          *time.Time
}

// Message is one entry of a session's transcript.
type Message struct {
	ID           int64
	WorkspaceID  int64
	SessionID    int64
	Role         string // user or assistant
	Text         string
	Mood         string
	RunID        int64 // the run that spoke it, 0 for a user message
	TurnComplete bool
	CreatedAt    time.Time
}

// Run is one WorkflowRun.
type Run struct {
	ID               int64
	WorkspaceID      int64
	SessionID        int64
	WorkflowID       int64
	Version          int
	Status           string
	ResumedFromRunID int64 // 0 when the run started at start
	NodeTrace        json.RawMessage
	Error            string
	ErrorCode        string
	StartedAt        time.Time
	FinishedAt       *time.Time
}

// Option is one choice an options-mode question offered.
type Option struct {
	Slot  int    `json:"slot"`
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Wait is an await_reply question waiting for the session's next message.
type Wait struct {
	ID          int64
	WorkspaceID int64
	SessionID   int64
	RunID       int64
	NodeID      string
	SaveAs      string
	MatchMode   string   // free_text or options
	Options     []Option // exactly what was offered, fixed when asked
	// Identity is the session's signed-in identity when the question was
	// asked; a reply under another identity cancels the wait.
	Identity string
	Status   string
	// ExpiresAt is when the question lapses; the zero value means it
	// never expires.
	ExpiresAt time.Time
	CreatedAt time.Time
}

// Pause is what a paused run leaves behind: the wait, and the context it
// resumes with. The context is readable only through OpenWait, never listed.
type Pause struct {
	Wait     Wait
	Snapshot json.RawMessage
}

// TurnState is what a turn reads before it starts: the session, the
// workflow its agent runs, the transcript so far, and the open wait.
type TurnState struct {
	Session  Session
	Agent    Agent
	Workflow Workflow // Draft may be left empty: a turn never needs it
	History  []Message
	// Wait is the session's OPEN wait when it has one; HasWait says so.
	// A wait past its expiresAt at now is closed as EXPIRED and not returned.
	Wait     Wait
	HasWait  bool
	Snapshot json.RawMessage
}

// TurnStart is written before a run starts, in one transaction: the user's
// message (so an accepted message is never lost) and the RUNNING run row.
type TurnStart struct {
	Message Message // RunID is filled in with the new run's id
	Run     Run
}

// TurnEnd is written when a run finishes, in one transaction: the run's
// final status and trace, what it said, the wait it answered or cancelled,
// and the pause it left.
type TurnEnd struct {
	Run      Run
	Messages []Message
	// CloseWait, when set, closes that wait (ANSWERED, EXPIRED, CANCELLED).
	CloseWait *WaitClose
	// Pause, when set, opens a new wait; ErrWaitExists if one is open.
	Pause *Pause
	// EndSession marks the session ENDED and cancels any open wait.
	EndSession bool
}

// WaitClose closes a wait with a status.
type WaitClose struct {
	WaitID int64
	Status string
}

// Member and API key roles (PLATFORM §2: role OWNER or MEMBER).
const (
	RoleOwner  = "OWNER"
	RoleMember = "MEMBER"
)

// Workflow.NotifyOnFailure values (PLATFORM §2: notifyOnFailure NONE|OWNERS).
const (
	NotifyNone   = "NONE"
	NotifyOwners = "OWNERS"
)

// McpConnector transports (PLATFORM §2: stdio or Streamable HTTP).
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// OutboundRequest statuses.
const (
	OutboundPending = "PENDING"
	OutboundSent    = "SENT"
	OutboundFailed  = "FAILED"
)

// Listing limits: a limit of 0 is the default, one above the maximum is
// refused with ErrInvalid rather than cut, so a client never mistakes a
// short page for the end.
const (
	DefaultListLimit  = 50   // Sessions, Runs
	MaxListLimit      = 200  // Sessions, Runs
	DefaultEventLimit = 100  // EventsAfter
	MaxEventLimit     = 1000 // EventsAfter
	MaxClaimLimit     = 1000 // ClaimOutbound
)

// APIKey is a workspace's key to the API (PLATFORM §2: stored hashed, shown
// once). The store never sees the key itself: only its hash, which
// APIKeyByHash looks up, and a prefix to tell keys apart in a list.
type APIKey struct {
	ID          int64
	WorkspaceID int64
	Name        string
	Role        string // RoleOwner or RoleMember
	Prefix      string // the key's first 12 characters, shown to identify it
	Hash        string // lowercase hex SHA-256 of the whole key, computed by the caller
	CreatedAt   time.Time
	RevokedAt   *time.Time
	// LastUsedAt is moved by TouchAPIKey, which callers call sparingly
	// (see there), so it is approximate.
	LastUsedAt *time.Time
}

// WorkflowSettings changes a workflow's settings; a nil field is left as
// it is. The draft has its own method, SaveDraft.
type WorkflowSettings struct {
	Name            *string
	Description     *string
	FailureResponse *string
	NotifyOnFailure *string // NotifyNone or NotifyOwners
}

// AgentSettings changes an agent; a nil field is left as it is. A
// WorkflowID of 0 detaches the agent's workflow.
type AgentSettings struct {
	Name         *string
	Persona      *string
	DefaultModel *string
	WorkflowID   *int64
}

// SessionQuery filters and pages Sessions. Zero fields do not filter.
type SessionQuery struct {
	AgentID int64
	Status  string // SessionOpen or SessionEnded
	// BeforeID pages: only sessions with a smaller id; 0 starts at the newest.
	BeforeID int64
	Limit    int // 0 is DefaultListLimit; at most MaxListLimit
}

// RunQuery filters and pages Runs. Zero fields do not filter.
type RunQuery struct {
	SessionID  int64
	WorkflowID int64
	Status     string // one of the Run statuses
	// BeforeID pages: only runs with a smaller id; 0 starts at the newest.
	BeforeID int64
	Limit    int // 0 is DefaultListLimit; at most MaxListLimit
}

// CustomAction is a named HTTP call that action nodes make by id
// (PLATFORM §2). Ids are per workspace, because the workspace file
// declares them and graphs reference them: (WorkspaceID, ID) is the key.
type CustomAction struct {
	ID          int64
	WorkspaceID int64
	Name        string // unique in the workspace
	Method      string // GET, POST, PUT, PATCH or DELETE
	URL         string
	// Headers' values are sealed by the caller (secrets are encrypted at
	// rest); the store keeps them as opaque strings.
	Headers   map[string]string
	TimeoutMs int // 0: the node's default
	CreatedAt time.Time
	UpdatedAt time.Time
}

// McpConnector is a registered MCP server that tool nodes call by id
// (PLATFORM §2); ids are per workspace, as CustomAction's.
type McpConnector struct {
	ID          int64
	WorkspaceID int64
	Name        string   // unique in the workspace
	Transport   string   // TransportStdio or TransportHTTP
	Command     []string // the stdio server's argv
	URL         string   // the Streamable HTTP endpoint
	// Credentials' values are sealed by the caller; kept opaque.
	Credentials map[string]string
	Tools       json.RawMessage // the tool list cached at registration
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// OutboundRequest is an async webhook call waiting in the durable queue,
// so that it survives a restart and is sent by one replica only.
type OutboundRequest struct {
	ID          int64
	WorkspaceID int64
	RunID       int64 // the run whose node queued it; 0 for none
	NodeID      string
	Method      string
	URL         string
	Headers     map[string]string // sealed by the caller where secret
	Body        []byte
	Status      string // OutboundPending, OutboundSent or OutboundFailed
	Attempts    int    // claims so far
	// NextAttemptAt is when the request is due; zero on enqueue is now.
	NextAttemptAt time.Time
	// LeaseUntil is set while a worker holds the request.
	LeaseUntil *time.Time
	ErrorClass string // the last attempt's failure class, "" when none
	HTTPStatus int    // the last attempt's response status, 0 when none
	CreatedAt  time.Time
	FinishedAt *time.Time
}

// Event is one entry of a session's live event log. Seq numbers a
// session's events 1, 2, 3… with no gaps, so a client that reconnects asks
// for what follows the last one it saw.
type Event struct {
	WorkspaceID int64
	SessionID   int64
	Seq         int64
	Type        string
	Payload     json.RawMessage
	CreatedAt   time.Time
}

// KeyStore holds API keys: what the API's authentication needs.
type KeyStore interface {
	// CreateAPIKey stores k; ErrConflict when its hash is already stored.
	CreateAPIKey(ctx context.Context, k APIKey) (APIKey, error)
	// APIKeyByHash is authentication's lookup, across workspaces by design:
	// the key names its workspace. ErrNotFound for an unknown or revoked key.
	APIKeyByHash(ctx context.Context, hash string) (APIKey, error)
	// APIKeys lists the workspace's keys, revoked ones too, in id order,
	// with Hash left empty: a listing never carries hashes.
	APIKeys(ctx context.Context, ws int64) ([]APIKey, error)
	// RevokeAPIKey revokes a key; ErrNotFound when it is not ws's or is
	// already revoked.
	RevokeAPIKey(ctx context.Context, ws, id int64) error
	// TouchAPIKey moves the key's LastUsedAt forward to at (never back). It
	// is a write, so callers must not call it per request: only when the
	// LastUsedAt that APIKeyByHash returned is older than the precision they
	// want (an hour, say). ErrNotFound when the key is not ws's.
	TouchAPIKey(ctx context.Context, ws, id int64, at time.Time) error
}

// OutboundQueue is the durable queue of async webhook calls.
type OutboundQueue interface {
	// EnqueueOutbound stores r PENDING with no attempts; a zero
	// NextAttemptAt or CreatedAt is now. Its run, when set, must be ws's.
	EnqueueOutbound(ctx context.Context, r OutboundRequest) (OutboundRequest, error)
	// ClaimOutbound is the operator's worker step, across workspaces: it
	// leases up to limit PENDING requests due at now and not leased (or
	// whose lease ended), oldest due first, setting LeaseUntil to now+lease
	// and counting an attempt. Two replicas never claim the same request
	// at once. A worker that outlives its lease may see the request claimed
	// again, so the lease must outlast the request's timeout.
	ClaimOutbound(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]OutboundRequest, error)
	// FinishOutbound records a claimed request's attempt: status SENT or
	// FAILED finishes it; PENDING with nextAttemptAt schedules a retry.
	// Either way the lease ends. ErrConflict when the request is not
	// leased (never claimed, or finished already); ErrNotFound when there
	// is no such request. By id alone: it follows ClaimOutbound.
	FinishOutbound(ctx context.Context, id int64, status, errorClass string, httpStatus int, nextAttemptAt *time.Time) error
	// OutboundByRun lists the requests a run of ws queued, in id order;
	// ErrNotFound when the run is not ws's.
	OutboundByRun(ctx context.Context, ws, runID int64) ([]OutboundRequest, error)
}

// EventLog keeps sessions' live events long enough (an hour or more) for a
// client reconnecting to any replica to replay what it missed.
type EventLog interface {
	// AppendEvents appends evs to the session's log atomically, numbering
	// them after its last event, and returns them with Seq, WorkspaceID,
	// SessionID and, when zero, CreatedAt set. Concurrent appends to one
	// session never share or skip a number. Each payload must be JSON
	// (ErrInvalid otherwise). ErrNotFound when the session is not ws's.
	AppendEvents(ctx context.Context, ws, sessionID int64, evs []Event) ([]Event, error)
	// EventsAfter lists the session's events with Seq > afterSeq in Seq
	// order, at most limit (0 is DefaultEventLimit; at most MaxEventLimit).
	// ErrNotFound when the session is not ws's.
	EventsAfter(ctx context.Context, ws, sessionID, afterSeq int64, limit int) ([]Event, error)
	// LastEventSeq is the Seq of the session's last event, 0 before its
	// first: the number the next append continues from. Pruning does not
	// lower it. ErrNotFound when the session is not ws's.
	LastEventSeq(ctx context.Context, ws, sessionID int64) (int64, error)
	// PruneEvents deletes events created before before, in every workspace
	// (an operator's step), and returns how many. Events appended in one
	// call are kept or deleted together, by the newest of them, so an old
	// event may outlive the window beside a newer one. Numbering continues
	// where it was: a pruned session's next event does not restart at 1.
	PruneEvents(ctx context.Context, before time.Time) (int, error)
}

// Store is everything Wetel persists.
type Store interface {
	CreateWorkspace(ctx context.Context, name string) (Workspace, error)
	Workspace(ctx context.Context, id int64) (Workspace, error)

	CreateWorkflow(ctx context.Context, w Workflow) (Workflow, error)
	Workflow(ctx context.Context, ws, id int64) (Workflow, error)
	SaveDraft(ctx context.Context, ws, id int64, draft json.RawMessage) error
	// Publish stores graph as a new numbered version and makes it current,
	// unless it equals the current version, which is returned unchanged.
	Publish(ctx context.Context, ws, id int64, graph json.RawMessage, by string) (WorkflowVersion, error)
	WorkflowVersion(ctx context.Context, ws, id int64, number int) (WorkflowVersion, error)

	CreateAgent(ctx context.Context, a Agent) (Agent, error)
	Agent(ctx context.Context, ws, id int64) (Agent, error)

	CreateSession(ctx context.Context, s Session) (Session, error)
	Session(ctx context.Context, ws, id int64) (Session, error)
	// SetIdentity changes the signed-in identity; a change cancels the
	// session's open wait in the same transaction.
	SetIdentity(ctx context.Context, ws, id int64, identity string) error
	// EndSession ends the session and cancels its open wait.
	EndSession(ctx context.Context, ws, id int64) error
	Messages(ctx context.Context, ws, sessionID int64) ([]Message, error)
	// AppendMessage adds a message outside a run (a message to an agent
	// whose workflow is not published: kept, never run).
	AppendMessage(ctx context.Context, m Message) (Message, error)

	// StartTurn writes the user's message and the RUNNING run in one
	// transaction. A message with an empty Role is not written (a turn
	// with no user message: runWorkflowTask); the Message returned is then
	// zero.
	StartTurn(ctx context.Context, t TurnStart) (Run, Message, error)
	// EndTurn writes the turn's end in one transaction and sets the ID
	// of each of t.Messages (the slice's elements, which the caller
	// shares) once they are stored.
	EndTurn(ctx context.Context, t TurnEnd) error
	Run(ctx context.Context, ws, id int64) (Run, error)
	RunsBySession(ctx context.Context, ws, sessionID int64) ([]Run, error)

	// OpenWait returns the session's OPEN wait and its snapshot. A wait past
	// its expiresAt at now is closed as EXPIRED here (expiry is enforced at
	// read time) and ErrNotFound returned.
	OpenWait(ctx context.Context, ws, sessionID int64, now time.Time) (Wait, json.RawMessage, error)
	// TurnState reads everything a turn needs before it starts, in one
	// transaction (one round trip where the driver can): the session of
	// ws (ErrNotFound when it is not ws's), its agent, the agent's workflow
	// (zero when the agent has none), the transcript in id order, and the
	// open wait with its snapshot, expired as OpenWait does.
	TurnState(ctx context.Context, ws, sessionID int64, now time.Time) (TurnState, error)
	// TurnStateSince is TurnState with History holding only the messages
	// whose id is above afterMessageID: a caller that keeps the transcript
	// it has read (messages are append-only) reads only what is new.
	TurnStateSince(ctx context.Context, ws, sessionID int64, now time.Time, afterMessageID int64) (TurnState, error)
	// PendingWaits lists OPEN, unexpired waits: one session's, or the whole
	// workspace's when sessionID is 0. Snapshots are never included.
	PendingWaits(ctx context.Context, ws, sessionID int64, now time.Time) ([]Wait, error)

	// RecoverRuns finishes every run left RUNNING by a process that stopped
	// (all workspaces: it is an operator's start-up step, not a tenant read),
	// as FAILED with reason, and returns how many there were.
	RecoverRuns(ctx context.Context, reason string) (int, error)
	// CountOpenWaits counts OPEN waits not expired at now in every
	// workspace: an operator's metric, a number and never rows.
	CountOpenWaits(ctx context.Context, now time.Time) (int, error)

	// Workflows lists the workspace's workflows, drafts included, in id order.
	Workflows(ctx context.Context, ws int64) ([]Workflow, error)
	// UpdateWorkflow changes the settings set in u and returns the workflow.
	UpdateWorkflow(ctx context.Context, ws, id int64, u WorkflowSettings) (Workflow, error)
	// WorkflowVersions lists a workflow's published versions, newest first;
	// ErrNotFound when the workflow is not ws's.
	WorkflowVersions(ctx context.Context, ws, workflowID int64) ([]WorkflowVersion, error)
	// Agents lists the workspace's agents in id order.
	Agents(ctx context.Context, ws int64) ([]Agent, error)
	// UpdateAgent changes the settings set in u and returns the agent; a
	// workflow it attaches must be ws's own, else ErrNotFound.
	UpdateAgent(ctx context.Context, ws, id int64, u AgentSettings) (Agent, error)
	// Sessions lists the workspace's sessions newest first, one page of q.
	// ErrNotFound when q.AgentID is not ws's.
	Sessions(ctx context.Context, ws int64, q SessionQuery) ([]Session, error)
	// Runs lists the workspace's runs newest first, one page of q.
	// ErrNotFound when q.SessionID or q.WorkflowID is not ws's.
	Runs(ctx context.Context, ws int64, q RunQuery) ([]Run, error)

	// PutCustomAction stores a: with ID 0 as the workspace's next id (one
	// more than its largest, at least 1); with an ID, inserting or
	// replacing that id, so applying a workspace file twice changes
	// nothing. CreatedAt is kept on replace. ErrConflict when another id
	// of the workspace has the name. Deleting the largest id lets the next
	// put without an id take it again.
	PutCustomAction(ctx context.Context, a CustomAction) (CustomAction, error)
	// CustomAction reads an action of ws.
	CustomAction(ctx context.Context, ws, id int64) (CustomAction, error)
	// CustomActions lists the workspace's actions in id order.
	CustomActions(ctx context.Context, ws int64) ([]CustomAction, error)
	// DeleteCustomAction deletes an action of ws; ErrNotFound when none.
	DeleteCustomAction(ctx context.Context, ws, id int64) error

	// PutMcpConnector stores c as PutCustomAction stores an action.
	PutMcpConnector(ctx context.Context, c McpConnector) (McpConnector, error)
	// McpConnector reads a connector of ws.
	McpConnector(ctx context.Context, ws, id int64) (McpConnector, error)
	// McpConnectors lists the workspace's connectors in id order.
	McpConnectors(ctx context.Context, ws int64) ([]McpConnector, error)
	// DeleteMcpConnector deletes a connector of ws; ErrNotFound when none.
	DeleteMcpConnector(ctx context.Context, ws, id int64) error

	KeyStore
	OutboundQueue
	EventLog

	Close() error
}
