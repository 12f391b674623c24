package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// keyHash is what the API stores for key: its lowercase hex SHA-256.
func keyHash(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

// newKey is an owner's key named name in ws; its hash is unique to the
// test, because hashes are unique across workspaces.
func newKey(t *testing.T, ws int64, name string) store.APIKey {
	key := "wtl_" + t.Name() + "/" + name
	return store.APIKey{WorkspaceID: ws, Name: name, Role: store.RoleOwner, Prefix: key[:12], Hash: keyHash(key)}
}

func testAPIKeys(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	at := now().Add(-time.Hour)
	in := newKey(t, tn.ws, "ci")
	in.Role, in.CreatedAt = store.RoleMember, at
	k1, err := s.CreateAPIKey(ctx, in)
	must(t, err)
	if k1.ID <= 0 || k1.Hash != in.Hash || !sameTime(at, k1.CreatedAt) || k1.RevokedAt != nil {
		t.Errorf("CreateAPIKey = %s", str(k1))
	}
	k2, err := s.CreateAPIKey(ctx, newKey(t, tn.ws, "deploy"))
	must(t, err)
	if k2.ID <= k1.ID || k2.CreatedAt.IsZero() {
		t.Errorf("second key %s after %d", str(k2), k1.ID)
	}

	got, err := s.APIKeyByHash(ctx, in.Hash)
	must(t, err)
	if got.ID != k1.ID || got.WorkspaceID != tn.ws || got.Name != "ci" || got.Role != store.RoleMember ||
		got.Prefix != in.Prefix || got.Hash != in.Hash || !sameTime(at, got.CreatedAt) ||
		got.RevokedAt != nil || got.LastUsedAt != nil {
		t.Errorf("APIKeyByHash = %s, want %s", str(got), str(k1))
	}
	_, err = s.APIKeyByHash(ctx, keyHash("never issued"))
	wantErr(t, "an unknown key", err, store.ErrNotFound)

	list, err := s.APIKeys(ctx, tn.ws)
	must(t, err)
	if len(list) != 2 || list[0].ID != k1.ID || list[1].ID != k2.ID || list[0].Name != "ci" ||
		list[0].Prefix != in.Prefix || list[0].Role != store.RoleMember {
		t.Fatalf("APIKeys = %s", str(list))
	}
	for _, k := range list {
		if k.Hash != "" {
			t.Errorf("APIKeys returned the hash of key %d", k.ID)
		}
	}

	_, err = s.CreateAPIKey(ctx, newKey(t, tn.ws, "ci"))
	wantErr(t, "a second key with the same hash", err, store.ErrConflict)
	other := newTenant(t, s)
	_, err = s.CreateAPIKey(ctx, newKey(t, other.ws, "ci"))
	wantErr(t, "the same hash in another workspace", err, store.ErrConflict)
	_, err = s.CreateAPIKey(ctx, newKey(t, tn.ws+other.ws+1_000_000, "nowhere"))
	wantErr(t, "a key of no workspace", err, store.ErrNotFound)

	must(t, s.RevokeAPIKey(ctx, tn.ws, k1.ID))
	_, err = s.APIKeyByHash(ctx, in.Hash)
	wantErr(t, "a revoked key", err, store.ErrNotFound)
	wantErr(t, "revoking twice", s.RevokeAPIKey(ctx, tn.ws, k1.ID), store.ErrNotFound)
	wantErr(t, "revoking an unknown key", s.RevokeAPIKey(ctx, tn.ws, k2.ID+1_000_000), store.ErrNotFound)
	list, err = s.APIKeys(ctx, tn.ws)
	must(t, err)
	if len(list) != 2 || list[0].RevokedAt == nil || list[1].RevokedAt != nil {
		t.Errorf("APIKeys after revoking the first = %s", str(list))
	}
	if _, err := s.APIKeyByHash(ctx, keyHash("wtl_"+t.Name()+"/deploy")); err != nil {
		t.Errorf("revoking one key revoked another: %v", err)
	}
}

// testTouchAPIKey: LastUsedAt only moves forward, and only for ws's key.
func testTouchAPIKey(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	k, err := s.CreateAPIKey(ctx, newKey(t, tn.ws, "k"))
	must(t, err)
	t1 := now().Add(-time.Minute)
	for _, c := range []struct {
		name string
		ws   int64
		at   time.Time
		want time.Time
	}{
		{"first use", tn.ws, t1, t1},
		{"later", tn.ws, t1.Add(time.Second), t1.Add(time.Second)},
		{"earlier, late to arrive", tn.ws, t1, t1.Add(time.Second)},
	} {
		must(t, s.TouchAPIKey(ctx, c.ws, k.ID, c.at))
		got, err := s.APIKeyByHash(ctx, k.Hash)
		must(t, err)
		if got.LastUsedAt == nil || !sameTime(c.want, *got.LastUsedAt) {
			t.Errorf("%s: LastUsedAt = %s, want %v", c.name, str(got.LastUsedAt), c.want)
		}
	}
	wantErr(t, "touching another workspace's key", s.TouchAPIKey(ctx, other.ws, k.ID, t1.Add(time.Hour)),
		store.ErrNotFound)
	got, err := s.APIKeyByHash(ctx, k.Hash)
	must(t, err)
	if got.LastUsedAt == nil || !sameTime(t1.Add(time.Second), *got.LastUsedAt) {
		t.Errorf("another workspace's touch moved LastUsedAt to %s", str(got.LastUsedAt))
	}
}
