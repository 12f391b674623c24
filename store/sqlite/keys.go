package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// apiKeyCols is what scanAPIKey reads; apiKeysSQL reads an empty string
// in place of the hash.
const apiKeyCols = `id, workspace_id, name, role, prefix, hash, created_at, revoked_at, last_used_at`

// API key statements. The workspace must exist (its foreign key); the hash
// is unique (api_keys_hash), which is ErrConflict.
const (
	insAPIKeySQL = `INSERT INTO api_keys (workspace_id, name, role, prefix, hash, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`
	// A listing never carries hashes: the column is not even read.
	apiKeysSQL = `SELECT id, workspace_id, name, role, prefix, '', created_at, revoked_at, last_used_at
		FROM api_keys WHERE workspace_id = ? ORDER BY id`
	revokeAPIKeySQL = `UPDATE api_keys SET revoked_at = ?
		WHERE id = ? AND workspace_id = ? AND revoked_at IS NULL`
	// Only forward, so a late touch never hides a newer one.
	touchAPIKeySQL = `UPDATE api_keys SET last_used_at = ?3
		WHERE id = ?1 AND workspace_id = ?2 AND (last_used_at IS NULL OR last_used_at < ?3)`
)

// scanAPIKey reads apiKeyCols.
func scanAPIKey(v []driver.Value) (store.APIKey, error) {
	return store.APIKey{ID: i64(v[0]), WorkspaceID: i64(v[1]), Name: text(v[2]), Role: text(v[3]),
		Prefix: text(v[4]), Hash: text(v[5]), CreatedAt: msTime(v[6]), RevokedAt: msTimePtr(v[7]),
		LastUsedAt: msTimePtr(v[8])}, nil
}

// CreateAPIKey stores k unrevoked; a zero CreatedAt is now.
func (s *Store) CreateAPIKey(ctx context.Context, k store.APIKey) (store.APIKey, error) {
	if err := check.APIKey(&k); err != nil {
		return store.APIKey{}, fmt.Errorf("creating api key: %w", err)
	}
	k.CreatedAt, k.RevokedAt, k.LastUsedAt = fromMs(msOrNow(k.CreatedAt)), nil, nil
	err := s.write(ctx, func(c *conn) error {
		var err error
		k.ID, err = c.insert(qInsAPIKey, k.WorkspaceID, k.Name, k.Role, k.Prefix, k.Hash, ms(k.CreatedAt))
		return err
	})
	if err != nil {
		return store.APIKey{}, fmt.Errorf("creating api key in workspace %d: %w", k.WorkspaceID, mapErr(err))
	}
	return k, nil
}

// APIKeyByHash finds the unrevoked key with hash, in any workspace.
func (s *Store) APIKeyByHash(ctx context.Context, hash string) (store.APIKey, error) {
	var k store.APIKey
	err := s.read(ctx, func(c *conn) error {
		v, err := c.row(qAPIKeyByHash, hash)
		if err != nil {
			return err
		}
		k, err = scanAPIKey(v)
		return err
	})
	if err != nil {
		// The hash is a secret's digest: it stays out of the message.
		return store.APIKey{}, fmt.Errorf("looking up an api key: %w", mapErr(err))
	}
	return k, nil
}

// APIKeys lists ws's keys in id order, without hashes.
func (s *Store) APIKeys(ctx context.Context, ws int64) ([]store.APIKey, error) {
	var out []store.APIKey
	err := s.read(ctx, func(c *conn) error {
		var err error
		out, err = collect(c, scanAPIKey, qAPIKeys, ws)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing api keys of workspace %d: %w", ws, err)
	}
	return out, nil
}

// RevokeAPIKey revokes an unrevoked key of ws.
func (s *Store) RevokeAPIKey(ctx context.Context, ws, id int64) error {
	err := s.write(ctx, func(c *conn) error {
		return oneRow(c.exec(qRevokeAPIKey, msOrNow(time.Time{}), id, ws))
	})
	if err != nil {
		return fmt.Errorf("revoking api key %d: %w", id, err)
	}
	return nil
}

// TouchAPIKey moves the key's LastUsedAt forward to at.
func (s *Store) TouchAPIKey(ctx context.Context, ws, id int64, at time.Time) error {
	err := s.write(ctx, func(c *conn) error {
		n, err := c.exec(qTouchAPIKey, id, ws, msOrNow(at))
		if err != nil || n > 0 {
			return err
		}
		// Unchanged: newer already, or not ws's key.
		_, err = c.row(qAPIKeyIn, id, ws)
		return mapErr(err)
	})
	if err != nil {
		return fmt.Errorf("touching api key %d: %w", id, err)
	}
	return nil
}
