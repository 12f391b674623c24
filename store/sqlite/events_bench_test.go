package sqlite_test

import (
	"testing"

	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/store/storetest"
)

// BenchmarkAppendEvents is the server's event persister: one AppendEvents
// call of a turn's ten events (payloads of about 150 bytes) per op, round
// 64 sessions.
func BenchmarkAppendEvents(b *testing.B) {
	storetest.BenchAppendEvents(b, openBench(b, sqlite.Options{}))
}

// BenchmarkEventsAfter is a reconnecting client's replay of the last 25
// events of a session, from the middle of a turn.
func BenchmarkEventsAfter(b *testing.B) {
	storetest.BenchEventsAfter(b, openBench(b, sqlite.Options{}))
}
