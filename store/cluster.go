package store

import "context"

// Cluster is what a store that several server replicas share offers their
// turns, so that a session's turns run one at a time across all of them
// (PLATFORM §9). A store that only one process opens (SQLite) does not
// implement it; its turns are serialized in the process.
type Cluster interface {
	// LockSession blocks until this process holds the turn lock of the
	// session across the cluster, and returns the function that frees it.
	// busy is called when another replica holds the lock at the moment of
	// asking (to interrupt its turn), and again every second while
	// it waits, since a notice can be lost. The lock belongs to a
	// database connection, so a replica that dies frees it with its
	// connection. A ctx that ends while waiting returns its error.
	LockSession(ctx context.Context, sessionID int64, busy func()) (release func(), err error)
	// Interrupt asks the replica running a turn of the session to stop it
	// before its next dispatch (PLATFORM §3: a newer message interrupts).
	Interrupt(ctx context.Context, sessionID int64) error
	// Interrupts calls fn with each session whose turn a replica asked to
	// interrupt, until ctx ends; it reconnects by itself after a failure.
	Interrupts(ctx context.Context, fn func(sessionID int64)) error
}
