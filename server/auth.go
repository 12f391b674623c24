package server

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

// keyTTL is how long a key lookup is trusted. A revocation takes effect at
// once on the replica that made it and within keyTTL on the others.
const keyTTL = 10 * time.Second

// errNotBearer is an Authorization header that is not a bearer key: a
// caller's mistake, answered with how to fix it. The header itself is never
// repeated, since it may be the key without its "Bearer " prefix.
var errNotBearer = errors.New(`the Authorization header must be "Bearer <key>": it has no "Bearer " prefix`)

// authenticator resolves bearer keys to principals, caching lookups so a
// request does not cost a database read.
type authenticator struct {
	store store.Store
	now   func() time.Time
	mu    sync.Mutex
	cache map[string]cachedKey
}

type cachedKey struct {
	p     gql.Caller
	until time.Time
}

func newAuthenticator(st store.Store) *authenticator {
	return &authenticator{store: st, now: time.Now, cache: make(map[string]cachedKey)}
}

// authenticate returns the principal of the request's bearer key.
func (a *authenticator) authenticate(r *http.Request) (gql.Caller, error) {
	h := r.Header.Get("Authorization")
	scheme, key, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return gql.Caller{}, errNotBearer
	}
	key = strings.TrimSpace(key)
	if err := checkKeyShape(key); err != nil {
		return gql.Caller{}, err
	}
	hash := gql.HashKey(key)
	now := a.now()
	a.mu.Lock()
	c, hit := a.cache[hash]
	a.mu.Unlock()
	if hit && now.Before(c.until) {
		return c.p, nil
	}
	k, err := a.store.APIKeyByHash(r.Context(), hash)
	if errors.Is(err, store.ErrNotFound) {
		return gql.Caller{}, errBadKey
	}
	if err != nil {
		return gql.Caller{}, err
	}
	p := gql.Caller{WorkspaceID: k.WorkspaceID, KeyID: k.ID, Role: k.Role}
	a.mu.Lock()
	if len(a.cache) > 10000 {
		clear(a.cache) // bounded: a flood of distinct keys cannot grow it
	}
	a.cache[hash] = cachedKey{p: p, until: now.Add(keyTTL)}
	a.mu.Unlock()
	return p, nil
}

// forget drops a revoked key from the cache.
func (a *authenticator) forget(keyID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for h, c := range a.cache {
		if c.p.KeyID == keyID {
			delete(a.cache, h)
		}
	}
}
