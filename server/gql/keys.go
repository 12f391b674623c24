package gql

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"

	"github.com/wetel/wetel/store"
)

// KeyPrefix starts every generated API key, so a leaked one is
// recognisable in logs and by secret scanners.
const KeyPrefix = "wtl_"

// NewKey creates and stores an API key, returning the key itself (shown
// once) and its stored record.
func (r *Resolver) NewKey(ctx context.Context, ws int64, name, role string) (string, store.APIKey, error) {
	key, err := GenerateKey()
	if err != nil {
		return "", store.APIKey{}, err
	}
	k, err := r.Store.CreateAPIKey(ctx, store.APIKey{WorkspaceID: ws, Name: name, Role: role, Prefix: ShownPrefix(key), Hash: HashKey(key)})
	return key, k, err
}

// GenerateKey returns a fresh key: the prefix and 32 random bytes.
func GenerateKey() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return KeyPrefix + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// HashKey is what the store keeps of a key. Generated keys are 256 random
// bits, so a fast hash is enough: there is nothing to brute-force.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// ShownPrefix is the part of a key kept in clear to tell keys apart.
func ShownPrefix(key string) string {
	const n = 12
	if len(key) < n {
		return key[:len(key)/2]
	}
	return key[:n]
}
