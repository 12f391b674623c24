package sqlite

import (
	"context"
	"errors"
	"fmt"

	"github.com/wetel/wetel/store"
)

// putModelConfigSQL stores the document only when ?2 is the stored version
// (0 for none): the WHERE guards the insert, the DO UPDATE's WHERE a row
// written since. No row returned is a conflict.
const putModelConfigSQL = `INSERT INTO model_configs (workspace_id, version, config, updated_at)
	SELECT ?1, ?2 + 1, ?3, ?4
	WHERE ?2 = coalesce((SELECT version FROM model_configs WHERE workspace_id = ?1), 0)
	ON CONFLICT (workspace_id) DO UPDATE SET version = excluded.version, config = excluded.config,
		updated_at = excluded.updated_at WHERE model_configs.version = ?2
	RETURNING version`

// ModelConfig reads ws's model configuration.
func (s *Store) ModelConfig(ctx context.Context, ws int64) (store.ModelConfig, error) {
	c := store.ModelConfig{WorkspaceID: ws}
	var doc []byte
	err := s.read(ctx, func(cn *conn) error {
		v, err := cn.row(qModelConfig, ws)
		if err != nil {
			return err
		}
		c.Version, doc, c.UpdatedAt = i64(v[0]), blob(v[1]), msTime(v[2])
		return nil
	})
	if errors.Is(err, errNoRow) {
		return c, nil
	}
	if err != nil {
		return store.ModelConfig{}, fmt.Errorf("reading the model configuration of workspace %d: %w", ws, err)
	}
	return c, store.DecodeModelConfig(doc, &c)
}

// PutModelConfig replaces ws's model configuration at its version.
func (s *Store) PutModelConfig(ctx context.Context, c store.ModelConfig) (store.ModelConfig, error) {
	doc, err := store.EncodeModelConfig(c)
	if err != nil {
		return store.ModelConfig{}, err
	}
	updated := msOrNow(c.UpdatedAt)
	err = s.write(ctx, func(cn *conn) error {
		v, err := cn.row(qPutModelConfig, c.WorkspaceID, c.Version, string(doc), updated)
		if errors.Is(err, errNoRow) {
			return fmt.Errorf("%w: the model configuration changed since version %d", store.ErrConflict, c.Version)
		}
		if err == nil {
			c.Version = i64(v[0])
		}
		return err
	})
	if err != nil {
		return store.ModelConfig{}, fmt.Errorf("putting the model configuration of workspace %d: %w", c.WorkspaceID, mapErr(err))
	}
	c.UpdatedAt = fromMs(updated)
	return c, nil
}

// ModelUsage returns ws's usage of day.
func (s *Store) ModelUsage(ctx context.Context, ws int64, day string) (tokens int64, cost float64, err error) {
	err = s.read(ctx, func(cn *conn) error {
		v, err := cn.row(qModelUsage, ws, day)
		if err != nil {
			return err
		}
		tokens = i64(v[0])
		switch c := v[1].(type) {
		case float64:
			cost = c
		case int64:
			cost = float64(c)
		}
		return nil
	})
	if errors.Is(err, errNoRow) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("reading the model usage of workspace %d: %w", ws, err)
	}
	return tokens, cost, nil
}

// AddModelUsage adds to ws's usage of day.
func (s *Store) AddModelUsage(ctx context.Context, ws int64, day string, tokens int64, cost float64) error {
	err := s.write(ctx, func(cn *conn) error {
		_, err := cn.exec(qAddModelUsage, ws, day, tokens, cost)
		return err
	})
	if err != nil {
		return fmt.Errorf("adding to the model usage of workspace %d: %w", ws, mapErr(err))
	}
	return nil
}
