package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/internal/check"
)

// apiKeyCols is what scanAPIKey reads; a listing reads an empty string
// in place of the hash.
const apiKeyCols = `id, workspace_id, name, role, prefix, hash, created_at, revoked_at, last_used_at`

// scanAPIKey reads apiKeyCols.
func scanAPIKey(r scanner) (store.APIKey, error) {
	var k store.APIKey
	err := r.Scan(&k.ID, &k.WorkspaceID, &k.Name, &k.Role, &k.Prefix, &k.Hash, &k.CreatedAt,
		&k.RevokedAt, &k.LastUsedAt)
	k.CreatedAt, k.RevokedAt, k.LastUsedAt = k.CreatedAt.UTC(), utcPtr(k.RevokedAt), utcPtr(k.LastUsedAt)
	return k, err
}

// CreateAPIKey stores k unrevoked; a zero CreatedAt is now. The workspace
// must exist (its foreign key); the hash is unique (api_keys_hash).
func (s *Store) CreateAPIKey(ctx context.Context, k store.APIKey) (store.APIKey, error) {
	if err := check.APIKey(&k); err != nil {
		return store.APIKey{}, fmt.Errorf("creating api key: %w", err)
	}
	k.CreatedAt, k.RevokedAt, k.LastUsedAt = orNow(k.CreatedAt), nil, nil
	err := s.with(ctx, func(ctx context.Context, c *pgx.Conn) error {
		return c.QueryRow(ctx, `INSERT INTO api_keys (workspace_id, name, role, prefix, hash, created_at)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			k.WorkspaceID, k.Name, k.Role, k.Prefix, k.Hash, k.CreatedAt).Scan(&k.ID)
	})
	if err != nil {
		return store.APIKey{}, fmt.Errorf("creating api key in workspace %d: %w", k.WorkspaceID, mapErr(err))
	}
	return k, nil
}

// APIKeyByHash finds the unrevoked key with hash, in any workspace.
func (s *Store) APIKeyByHash(ctx context.Context, hash string) (store.APIKey, error) {
	k, err := readOne(ctx, s, scanAPIKey, `SELECT `+apiKeyCols+` FROM api_keys
		WHERE hash = $1 AND revoked_at IS NULL`, hash)
	if err != nil {
		// The hash is a secret's digest: it stays out of the message.
		return store.APIKey{}, fmt.Errorf("looking up an api key: %w", err)
	}
	return k, nil
}

// APIKeys lists ws's keys in id order; the hash column is never read.
func (s *Store) APIKeys(ctx context.Context, ws int64) ([]store.APIKey, error) {
	out, err := list(ctx, s, scanAPIKey, `SELECT id, workspace_id, name, role, prefix, '', created_at,
		revoked_at, last_used_at FROM api_keys WHERE workspace_id = $1 ORDER BY id`, ws)
	if err != nil {
		return nil, fmt.Errorf("listing api keys of workspace %d: %w", ws, err)
	}
	return out, nil
}

// RevokeAPIKey revokes an unrevoked key of ws.
func (s *Store) RevokeAPIKey(ctx context.Context, ws, id int64) error {
	err := s.changeOne(ctx, `UPDATE api_keys SET revoked_at = $1
		WHERE id = $2 AND workspace_id = $3 AND revoked_at IS NULL`, orNow(time.Time{}), id, ws)
	if err != nil {
		return fmt.Errorf("revoking api key %d: %w", id, err)
	}
	return nil
}

// TouchAPIKey moves the key's LastUsedAt forward to at, never back, in one
// statement that also says whether the key is ws's.
func (s *Store) TouchAPIKey(ctx context.Context, ws, id int64, at time.Time) error {
	err := s.one(ctx, `WITH k AS (
			SELECT id FROM api_keys WHERE id = $1 AND workspace_id = $2
		), u AS (
			UPDATE api_keys SET last_used_at = $3 FROM k
			WHERE api_keys.id = k.id AND (last_used_at IS NULL OR last_used_at < $3)
		)
		SELECT count(*) FROM k`, id, ws, orNow(at))
	if err != nil {
		return fmt.Errorf("touching api key %d: %w", id, err)
	}
	return nil
}
