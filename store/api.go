package store

import (
	"context"
	"encoding/json"
	"time"
)

// The rows the API serves beyond conversations: keys, listings, the
// registrations of outbound calls, their queue, and the event log.

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
	// again, so the lease must outlast the request's timeout. Requests of
	// the workspaces in skip are passed over (those with as many requests
	// in flight as the worker lets one workspace have).
	ClaimOutbound(ctx context.Context, now time.Time, lease time.Duration, limit int, skip []int64) ([]OutboundRequest, error)
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

// Artifact kinds (PLATFORM §2: Artifact (markdown, html, image, pdf)).
const (
	ArtifactMarkdown = "markdown"
	ArtifactHTML     = "html"
	ArtifactImage    = "image"
	ArtifactPDF      = "pdf"
)

// MaxArtifactBytes bounds one artifact's content. It is the store's own
// ceiling: the node types that make artifacts keep lower limits of their
// own (pdf_export's document size), so this only stops a row no reader
// could hold in memory.
const MaxArtifactBytes = 32 << 20

// MaxArtifactName bounds an artifact's name, in bytes.
const MaxArtifactName = 255

// Artifact is a document or image a node made (generate_artifact,
// pdf_export), kept whole in the store and served to its own workspace.
type Artifact struct {
	ID          int64
	WorkspaceID int64
	Kind        string // ArtifactMarkdown, ArtifactHTML, ArtifactImage or ArtifactPDF
	Name        string // a file name to offer, such as "trip.pdf"
	ContentType string // the media type served, such as "application/pdf"
	// Size is len(Data), set by the store (ArtifactInfo reads it without
	// the content).
	Size      int64
	Data      []byte
	CreatedAt time.Time
}

// ArtifactStore holds artifacts.
type ArtifactStore interface {
	// PutArtifact stores a as a new artifact of a.WorkspaceID and returns
	// it with ID, Size and, when zero, CreatedAt set. ErrInvalid for an unknown
	// kind, an empty or overlong name or content type, or content over
	// MaxArtifactBytes; ErrNotFound when the workspace does not exist.
	PutArtifact(ctx context.Context, a Artifact) (Artifact, error)
	// Artifact reads an artifact of ws with its content; ErrNotFound when
	// there is none, or it is another workspace's.
	Artifact(ctx context.Context, ws, id int64) (Artifact, error)
	// ArtifactInfo is Artifact without the content (Data nil, Size set).
	ArtifactInfo(ctx context.Context, ws, id int64) (Artifact, error)
}
