package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// ModelProvider is one of a workspace's language model providers: an
// OpenAI-compatible endpoint and the models it is sent.
type ModelProvider struct {
	// ID is the provider's id in its workspace, given by the caller (the
	// API takes the next free one).
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	BaseURL string `json:"baseUrl"`
	// APIKey is sealed by the caller (secrets are encrypted at rest); ""
	// for none.
	APIKey    string    `json:"apiKey,omitempty"`
	Models    []string  `json:"models"`
	TimeoutMs int       `json:"timeoutMs,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// ModelConfig is a workspace's providers, in fallback order, and its model
// settings: one document, read and replaced whole.
type ModelConfig struct {
	WorkspaceID    int64           `json:"-"`
	Providers      []ModelProvider `json:"providers"`
	DefaultModel   string          `json:"defaultModel,omitempty"`
	EmbeddingModel string          `json:"embeddingModel,omitempty"`
	AllowedModels  []string        `json:"allowedModels,omitempty"`
	// Prices per million tokens, by model, and the daily budgets (0: none).
	Prices           map[string]ModelPrice `json:"prices,omitempty"`
	DailyTokenBudget int64                 `json:"dailyTokenBudget,omitempty"`
	DailySpendBudget float64               `json:"dailySpendBudget,omitempty"`
	// Version counts the puts; 0 for a workspace that never had one.
	Version   int64     `json:"-"`
	UpdatedAt time.Time `json:"-"`
}

// ModelPrice is a model's price per million tokens in and out.
type ModelPrice struct {
	In  float64 `json:"in"`
	Out float64 `json:"out"`
}

// ModelStore holds the workspaces' model configurations and what their
// model calls used per day.
type ModelStore interface {
	// ModelUsage returns the tokens and cost ws's model calls used on day
	// ("2006-01-02", UTC); zeros for a day with none.
	ModelUsage(ctx context.Context, ws int64, day string) (tokens int64, cost float64, err error)
	// AddModelUsage adds to ws's usage of day, atomically.
	AddModelUsage(ctx context.Context, ws int64, day string, tokens int64, cost float64) error
	// ModelConfig reads ws's model configuration; one with Version 0 and
	// nothing in it when ws has none.
	ModelConfig(ctx context.Context, ws int64) (ModelConfig, error)
	// PutModelConfig replaces c.WorkspaceID's configuration when c.Version
	// is the stored version (0 for none), and returns it with the next
	// version; ErrConflict when another put came first (read again and
	// retry), ErrNotFound when the workspace does not exist.
	PutModelConfig(ctx context.Context, c ModelConfig) (ModelConfig, error)
}

// EncodeModelConfig is the stored document of c, for the drivers.
func EncodeModelConfig(c ModelConfig) ([]byte, error) {
	if c.Providers == nil {
		c.Providers = []ModelProvider{}
	}
	return json.Marshal(c)
}

// DecodeModelConfig reads a stored document into c, for the drivers.
func DecodeModelConfig(doc []byte, c *ModelConfig) error {
	if err := json.Unmarshal(doc, c); err != nil {
		return fmt.Errorf("model configuration of workspace %d: %w", c.WorkspaceID, err)
	}
	for i := range c.Providers {
		p := &c.Providers[i]
		p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	}
	return nil
}
