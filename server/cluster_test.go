package server

import (
	"context"
	"testing"
	"time"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/store/postgres/pgtest"
)

// Two replicas on one PostgreSQL database: a key revoked on one is refused
// by the other at once, not after its cache's 10 s; and both started on an
// empty database set up one Demo workspace between them.
func TestClusterRevocationAndFirstStart(t *testing.T) {
	t.Parallel()
	url, dir := pgtest.URL(t), t.TempDir() // one data folder: one secret key
	a := startServer(t, Config{DatabaseURL: url, DataDir: dir})
	b := startServer(t, Config{DatabaseURL: url, DataDir: dir})
	var ws struct {
		Me struct{ WorkspaceName string }
	}
	do(t, b.c, `{ me { workspaceName } }`, nil, &ws)
	var created struct {
		CreateApiKey struct {
			Key    string
			ApiKey struct{ ID int }
		}
	}
	do(t, a.c, `mutation { createApiKey(name: "temp", role: MEMBER) { key apiKey { id } } }`, nil, &created)
	temp := client.New(b.url, created.CreateApiKey.Key)
	do(t, temp, `{ me { role } }`, nil, nil) // now in b's cache
	do(t, a.c, `mutation($id: Int!) { revokeApiKey(id: $id) }`, map[string]any{"id": created.CreateApiKey.ApiKey.ID}, nil)
	// The notice crosses in milliseconds; the cache would have kept the
	// key for 10 s. Waiting for the refusal, up to 5 s, tells them apart.
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := temp.Do(context.Background(), `{ me { role } }`, nil, nil)
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("replica b still accepts a key revoked on replica a")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ws.Me.WorkspaceName != "Demo" {
		t.Errorf("replica b's workspace: %q", ws.Me.WorkspaceName)
	}
}
