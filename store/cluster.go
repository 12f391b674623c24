package store

import "context"

// Cluster is what a store that several server replicas share offers them,
// so that a session's turns run one at a time across all of them and what
// one replica changes reaches the others at once (PLATFORM §9). A store
// that only one process opens (SQLite) does not implement it.
type Cluster interface {
	// LockSession blocks until this process holds the turn lock of the
	// session across the cluster, and returns the function that frees it.
	// busy is called when another replica holds the lock at the moment of
	// asking (to interrupt its turn), and again every second while it
	// waits, since a notice can be lost. The lock belongs to a database
	// connection, so a replica that dies frees it with its connection. A
	// ctx that ends while waiting returns its error.
	LockSession(ctx context.Context, sessionID int64, busy func()) (release func(), err error)
	// Notify tells every other replica of the cluster something on one of
	// the Notice… channels; the payload is short text (an id).
	Notify(ctx context.Context, channel, payload string) error
	// Listen calls fn with each notice another replica sent, until ctx
	// ends; it reconnects by itself after a failure.
	Listen(ctx context.Context, fn func(channel, payload string)) error
}

// The channels of Cluster notices.
const (
	// ChannelInterrupt: stop the turn running in the session (payload: its
	// id) before its next dispatch; a newer message arrived elsewhere.
	ChannelInterrupt = "wetel_interrupt"
	// ChannelKeyRevoked: the API key (payload: its id) was revoked; forget
	// it at once.
	ChannelKeyRevoked = "wetel_key_revoked"
)

// Channels lists every Cluster channel, for a listener to subscribe to.
var Channels = []string{ChannelInterrupt, ChannelKeyRevoked}
