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
	// ErrWaitExists: the session already holds an OPEN wait resumed by a
	// reply. The database enforces it (a unique partial index), so two
	// racing turns cannot both open one.
	ErrWaitExists = errors.New("the session already has an open question")
	// ErrSessionEnded: the session has ended, so a turn cannot start in it;
	// nothing was written.
	ErrSessionEnded = errors.New("the session has ended")
	// ErrConflict: a write raced another and lost (a stale status change).
	ErrConflict = errors.New("conflict")
	// ErrInvalid: an input breaks a rule of the contract (an empty name, an
	// unknown role, a limit out of range). The message names the field, so
	// the API can answer VALIDATION with it as it is.
	ErrInvalid = errors.New("invalid input")
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
	// ParentSessionID is the session whose sub_agent node dispatched this
	// one, 0 for a session a person or a client opened. A child session
	// takes no messages from outside.
	ParentSessionID int64
	CreatedAt       time.Time
	EndedAt         *time.Time
}

// Message is one entry of a session's transcript.
type Message struct {
	ID           int64
	WorkspaceID  int64
	SessionID    int64
	Role         string // user or assistant
	Text         string
	Mood         string
	RunID        int64 // the run that spoke it, or that a user message started; 0 for none
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

// Wait is a paused run waiting for its input: a kind (the node type that
// paused) with the kind's own state, which the store keeps as it is given.
// A wait is OPEN until it gets exactly one outcome (ANSWERED, EXPIRED,
// CANCELLED); a session holds at most one OPEN wait resumed by a reply,
// which the database enforces.
type Wait struct {
	ID          int64
	WorkspaceID int64
	SessionID   int64
	RunID       int64
	NodeID      string
	// Kind names the node type whose Resume hook continues the wait
	// (await_reply, approval, end_session).
	Kind string
	// ResumeOn is vocab.ResumeOnReply or vocab.ResumeOnDecision.
	ResumeOn string
	// State is the kind's own JSON, fixed when the run paused.
	State json.RawMessage
	// Identity is the session's signed-in identity when the run paused; a
	// reply under another identity cancels the wait.
	Identity string
	Status   string
	// ExpiresAt is when the wait lapses; the zero value means it never
	// expires.
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
	// Wait is the session's OPEN wait resumed by a reply, when it has one;
	// HasWait says so. Such a wait past its expiresAt at now is closed as
	// EXPIRED and not returned (seed 000: expiry is "enforced at read time").
	Wait     Wait
	HasWait  bool
	Snapshot json.RawMessage
}

// TurnStart is written before a run starts, in one transaction: the user's
// message (so an accepted message is never lost), the RUNNING run row, and
// the outcome of the wait the message answers. The session must be OPEN:
// else ErrSessionEnded, and nothing is written.
type TurnStart struct {
	Message Message // RunID is filled in with the new run's id
	Run     Run
	// Claim, when set, gives the session's open wait its one outcome as the
	// turn starts: ANSWERED when the message resumes it, CANCELLED when it
	// is set aside (the identity changed, the graph lost its edge).
	Claim *WaitClaim
}

// WaitClaim is the outcome a turn gives the wait it found open. Closing it
// in the turn's first transaction means a session change racing the reply
// (setSessionIdentity, endSession) and the reply cannot both decide it.
type WaitClaim struct {
	WaitID int64
	Status string
	// Won is set by StartTurn: true when the wait was still OPEN and now has
	// Status. When it is false another request closed it first; the run was
	// stored as a fresh one (ResumedFromRunID 0) and must start at start.
	Won bool
	// Required makes a lost claim fail the whole start with ErrConflict,
	// writing nothing: a decision on a wait that already has its outcome.
	Required bool
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

// Store is everything Wetel persists.
type Store interface {
	CreateWorkspace(ctx context.Context, name string) (Workspace, error)
	// CreateFirstWorkspace creates a workspace only when the database has
	// none, and reports whether it did: of servers starting at once on an
	// empty database, exactly one sets up the first start.
	CreateFirstWorkspace(ctx context.Context, name string) (Workspace, bool, error)
	// Ping checks the database answers, for a readiness probe.
	Ping(ctx context.Context) error
	// AgreeSetting stores value under name unless the name has one, and
	// returns the value stored: the first server to start sets it, and the
	// others check theirs against it.
	AgreeSetting(ctx context.Context, name, value string) (string, error)
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

	// OpenWait returns the session's OPEN wait resumed by a reply, and its
	// snapshot. A wait past its expiresAt at now is closed as EXPIRED here
	// (expiry is enforced at read time) and ErrNotFound returned.
	OpenWait(ctx context.Context, ws, sessionID int64, now time.Time) (Wait, json.RawMessage, error)
	// WaitByID reads a wait of ws, whatever its status, with its snapshot:
	// what a decision on it resumes from.
	WaitByID(ctx context.Context, ws, id int64) (Wait, json.RawMessage, error)
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
	// PendingWaits lists OPEN, unexpired waits of one kind in id order: one
	// session's, or the whole workspace's when sessionID is 0. Snapshots are
	// never included.
	PendingWaits(ctx context.Context, ws, sessionID int64, kind string, now time.Time) ([]Wait, error)

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
	ArtifactStore
	NotificationStore
	ModelStore

	Close() error
}
