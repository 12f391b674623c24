package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store"
)

// putModelConfigSQL stores the document only when $2 is the stored version
// (0 for none): the WHERE guards the insert, the DO UPDATE's WHERE a row
// written by a put racing this one. No row returned is a conflict.
const putModelConfigSQL = `INSERT INTO model_configs (workspace_id, version, config, updated_at)
	SELECT $1, $2::bigint + 1, $3, $4
	WHERE $2::bigint = coalesce((SELECT version FROM model_configs WHERE workspace_id = $1), 0)
	ON CONFLICT (workspace_id) DO UPDATE SET version = excluded.version, config = excluded.config,
		updated_at = excluded.updated_at WHERE model_configs.version = $2::bigint
	RETURNING version`

// ModelConfig reads ws's model configuration.
func (s *Store) ModelConfig(ctx context.Context, ws int64) (store.ModelConfig, error) {
	c := store.ModelConfig{WorkspaceID: ws}
	var doc []byte
	err := s.with(ctx, func(ctx context.Context, cn *pgx.Conn) error {
		return cn.QueryRow(ctx, `SELECT version, config, updated_at FROM model_configs WHERE workspace_id = $1`, ws).
			Scan(&c.Version, &doc, &c.UpdatedAt)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return c, nil
	}
	if err != nil {
		return store.ModelConfig{}, fmt.Errorf("reading the model configuration of workspace %d: %w", ws, err)
	}
	c.UpdatedAt = c.UpdatedAt.UTC()
	return c, store.DecodeModelConfig(doc, &c)
}

// PutModelConfig replaces ws's model configuration at its version.
func (s *Store) PutModelConfig(ctx context.Context, c store.ModelConfig) (store.ModelConfig, error) {
	doc, err := store.EncodeModelConfig(c)
	if err != nil {
		return store.ModelConfig{}, err
	}
	updated := orNow(c.UpdatedAt)
	var version int64
	err = s.with(ctx, func(ctx context.Context, cn *pgx.Conn) error {
		return cn.QueryRow(ctx, putModelConfigSQL, c.WorkspaceID, c.Version, string(doc), updated).Scan(&version)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ModelConfig{}, fmt.Errorf("putting the model configuration of workspace %d: %w: it changed since version %d", c.WorkspaceID, store.ErrConflict, c.Version)
	}
	if err != nil {
		return store.ModelConfig{}, fmt.Errorf("putting the model configuration of workspace %d: %w", c.WorkspaceID, mapErr(err))
	}
	c.Version, c.UpdatedAt = version, updated.UTC()
	return c, nil
}

// ModelUsage returns ws's usage of day.
func (s *Store) ModelUsage(ctx context.Context, ws int64, day string) (tokens int64, cost float64, err error) {
	err = s.with(ctx, func(ctx context.Context, cn *pgx.Conn) error {
		return cn.QueryRow(ctx, `SELECT tokens, cost FROM model_usage WHERE workspace_id = $1 AND day = $2`, ws, day).Scan(&tokens, &cost)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("reading the model usage of workspace %d: %w", ws, err)
	}
	return tokens, cost, nil
}

// AddModelUsage adds to ws's usage of day, atomically.
func (s *Store) AddModelUsage(ctx context.Context, ws int64, day string, tokens int64, cost float64) error {
	err := s.with(ctx, func(ctx context.Context, cn *pgx.Conn) error {
		_, err := cn.Exec(ctx, `INSERT INTO model_usage (workspace_id, day, tokens, cost) VALUES ($1, $2, $3, $4)
			ON CONFLICT (workspace_id, day) DO UPDATE SET tokens = model_usage.tokens + excluded.tokens,
				cost = model_usage.cost + excluded.cost`, ws, day, tokens, cost)
		return err
	})
	if err != nil {
		return fmt.Errorf("adding to the model usage of workspace %d: %w", ws, mapErr(err))
	}
	return nil
}
