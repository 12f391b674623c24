package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// A workspace's model configuration is one document under a version: a
// put at a stale version is refused, another workspace's is its own.
func testModelConfig(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	empty, err := s.ModelConfig(ctx, tn.ws)
	must(t, err)
	if empty.Version != 0 || len(empty.Providers) != 0 || empty.WorkspaceID != tn.ws {
		t.Fatalf("a fresh workspace's config %+v", empty)
	}
	at := now().Add(-time.Minute)
	cfg := store.ModelConfig{WorkspaceID: tn.ws, DefaultModel: "llama3.2", EmbeddingModel: "nomic-embed-text", AllowedModels: []string{"llama3.2"},
		Prices: map[string]store.ModelPrice{"llama3.2": {In: 0.1, Out: 0.4}}, DailyTokenBudget: 100000, DailySpendBudget: 2.5,
		Providers: []store.ModelProvider{
			{ID: 1, Name: "local", BaseURL: "http://127.0.0.1:11434/v1", APIKey: "sealed:v1:abc", Models: []string{"llama3.2", "nomic-embed-text"}, TimeoutMs: 5000, CreatedAt: at, UpdatedAt: at},
			{ID: 2, Name: "openai", BaseURL: "https://api.openai.com/v1", Models: []string{"gpt-4o-mini"}, CreatedAt: at, UpdatedAt: at},
		}}
	put, err := s.PutModelConfig(ctx, cfg)
	must(t, err)
	if put.Version != 1 {
		t.Errorf("first put: version %d, want 1", put.Version)
	}
	got, err := s.ModelConfig(ctx, tn.ws)
	must(t, err)
	if got.Version != 1 || !reflect.DeepEqual(got.Providers, cfg.Providers) || got.DefaultModel != "llama3.2" ||
		got.EmbeddingModel != "nomic-embed-text" || !reflect.DeepEqual(got.AllowedModels, cfg.AllowedModels) || got.UpdatedAt.IsZero() ||
		!reflect.DeepEqual(got.Prices, cfg.Prices) || got.DailyTokenBudget != 100000 || got.DailySpendBudget != 2.5 {
		t.Errorf("read back %+v, want %+v", got, cfg)
	}
	// A put at the version read replaces it; one at an older version is a conflict.
	got.Providers = got.Providers[1:]
	if put, err = s.PutModelConfig(ctx, got); err != nil || put.Version != 2 {
		t.Fatalf("second put: %+v %v", put, err)
	}
	if _, err := s.PutModelConfig(ctx, got); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a put at a stale version: %v, want ErrConflict", err)
	}
	stale := cfg
	stale.Version = 0
	if _, err := s.PutModelConfig(ctx, stale); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a first put over an existing config: %v, want ErrConflict", err)
	}
	if got, _ := s.ModelConfig(ctx, tn.ws); got.Version != 2 || len(got.Providers) != 1 || got.Providers[0].Name != "openai" {
		t.Errorf("after the refused puts: %+v", got)
	}
	// Another workspace's is its own; one that does not exist has none to put.
	if o, err := s.ModelConfig(ctx, other.ws); err != nil || o.Version != 0 || len(o.Providers) != 0 {
		t.Errorf("the other workspace's config %+v %v", o, err)
	}
	if _, err := s.PutModelConfig(ctx, store.ModelConfig{WorkspaceID: 1 << 40}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a put for no workspace: %v, want ErrNotFound", err)
	}
}

// A day's model usage adds up, atomically, per workspace and day.
func testModelUsage(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	if tokens, cost, err := s.ModelUsage(ctx, tn.ws, "2026-12-01"); err != nil || tokens != 0 || cost != 0 {
		t.Fatalf("a day with none: %d %v %v", tokens, cost, err)
	}
	done := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() { done <- s.AddModelUsage(ctx, tn.ws, "2026-12-01", 100, 0.25) }()
	}
	for i := 0; i < 8; i++ {
		must(t, <-done)
	}
	must(t, s.AddModelUsage(ctx, tn.ws, "2026-12-02", 7, 0))
	if tokens, cost, err := s.ModelUsage(ctx, tn.ws, "2026-12-01"); err != nil || tokens != 800 || cost != 2 {
		t.Errorf("after 8 adds: %d %v %v", tokens, cost, err)
	}
	if tokens, _, _ := s.ModelUsage(ctx, tn.ws, "2026-12-02"); tokens != 7 {
		t.Errorf("the next day: %d", tokens)
	}
	if tokens, _, _ := s.ModelUsage(ctx, other.ws, "2026-12-01"); tokens != 0 {
		t.Errorf("another workspace's day: %d", tokens)
	}
	if err := s.AddModelUsage(ctx, 1<<40, "2026-12-01", 1, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("usage of no workspace: %v", err)
	}
}
