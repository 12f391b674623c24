package gql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/store"
)

// ModelKeyAAD binds a provider's sealed API key to its workspace and id.
func ModelKeyAAD(ws, id int64) string { return fmt.Sprintf("ws:%d/modelProvider:%d/apiKey", ws, id) }

// OpenModelConfig is a stored configuration as the model client takes it,
// the API keys opened.
func OpenModelConfig(box *secrets.Box, c store.ModelConfig) (models.Config, error) {
	out := settingsOf(c)
	for _, p := range c.Providers {
		key, err := openKey(box, c.WorkspaceID, p)
		if err != nil {
			return models.Config{}, err
		}
		out.Providers = append(out.Providers, models.Provider{Name: p.Name, BaseURL: p.BaseURL, APIKey: key, Models: p.Models, TimeoutMs: p.TimeoutMs})
	}
	return out, nil
}

func openKey(box *secrets.Box, ws int64, p store.ModelProvider) (string, error) {
	if p.APIKey == "" {
		return "", nil
	}
	key, err := box.Open(p.APIKey, ModelKeyAAD(ws, p.ID))
	if err != nil {
		return "", fmt.Errorf("model provider %d: opening its API key: %w", p.ID, err)
	}
	return string(key), nil
}

// settingsOf is c's settings, without its providers.
func settingsOf(c store.ModelConfig) models.Config {
	out := models.Config{DefaultModel: c.DefaultModel, EmbeddingModel: c.EmbeddingModel, AllowedModels: c.AllowedModels,
		DailyTokenBudget: c.DailyTokenBudget, DailySpendBudget: c.DailySpendBudget}
	if len(c.Prices) > 0 {
		out.Prices = make(map[string]models.Price, len(c.Prices))
		for m, p := range c.Prices {
			out.Prices[m] = models.Price{In: p.In, Out: p.Out}
		}
	}
	return out
}

// checkModelConfig runs the catalog rules on what would be stored. A
// workspace without providers of its own uses the server's, so only the
// shape of its settings is checked then.
func checkModelConfig(c store.ModelConfig) error {
	mc := settingsOf(c)
	for _, p := range c.Providers {
		mc.Providers = append(mc.Providers, models.Provider{Name: p.Name, BaseURL: p.BaseURL, Models: p.Models, TimeoutMs: p.TimeoutMs})
	}
	if len(mc.Providers) == 0 {
		return nil
	}
	if err := mc.Check("providers"); err != nil {
		return Errorf(CodeValidation, "%v", err)
	}
	return nil
}

// changeModels reads the caller's configuration, applies change and stores
// it, reading again when another request stored one in between.
func (r *Resolver) changeModels(ctx context.Context, what string, change func(ws int64, c *store.ModelConfig) error) (store.ModelConfig, error) {
	c, err := owner(ctx, what)
	if err != nil {
		return store.ModelConfig{}, err
	}
	for try := 0; ; try++ {
		cfg, err := r.Store.ModelConfig(ctx, c.WorkspaceID)
		if err != nil {
			return store.ModelConfig{}, err
		}
		if err := change(c.WorkspaceID, &cfg); err != nil {
			return store.ModelConfig{}, err
		}
		if err := checkModelConfig(cfg); err != nil {
			return store.ModelConfig{}, err
		}
		cfg.UpdatedAt = time.Time{}
		put, err := r.Store.PutModelConfig(ctx, cfg)
		if errors.Is(err, store.ErrConflict) && try < 3 {
			continue
		}
		if err != nil {
			return store.ModelConfig{}, storeErr(err, "model configuration of workspace", int(c.WorkspaceID))
		}
		if r.ModelsChanged != nil {
			r.ModelsChanged(c.WorkspaceID)
		}
		return put, nil
	}
}

func (r *Resolver) createModelProvider(ctx context.Context, in ModelProviderInput) (*ModelProvider, error) {
	var id int64
	var plain string
	cfg, err := r.changeModels(ctx, "createModelProvider", func(ws int64, cfg *store.ModelConfig) error {
		p := models.Provider{Name: in.Name, BaseURL: in.BaseURL, APIKey: deref(in.APIKey), Models: in.Models, TimeoutMs: deref(in.TimeoutMs)}
		if err := r.checkProvider(ctx, p); err != nil {
			return err
		}
		if len(cfg.Providers) >= models.MaxProviders {
			return Errorf(CodeLimit, "a workspace has at most %d model providers", models.MaxProviders)
		}
		id = 1
		for _, o := range cfg.Providers {
			if o.Name == in.Name {
				return Errorf(CodeConflict, "name: a model provider is already named %q", in.Name)
			}
			id = max(id, o.ID+1)
		}
		sp := store.ModelProvider{ID: id, Name: p.Name, BaseURL: p.BaseURL, Models: p.Models, TimeoutMs: p.TimeoutMs,
			CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC()}
		plain = p.APIKey
		if err := r.sealKey(ws, &sp, plain); err != nil {
			return err
		}
		pos, err := position(in.Position, len(cfg.Providers))
		if err != nil {
			return err
		}
		cfg.Providers = slices.Insert(cfg.Providers, pos, sp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return shownProvider(cfg, id, plain)
}

func (r *Resolver) updateModelProvider(ctx context.Context, id int, in UpdateModelProviderInput) (*ModelProvider, error) {
	var plain string
	cfg, err := r.changeModels(ctx, "updateModelProvider", func(ws int64, cfg *store.ModelConfig) error {
		i := slices.IndexFunc(cfg.Providers, func(p store.ModelProvider) bool { return p.ID == int64(id) })
		if i < 0 {
			return notFound("model provider", id)
		}
		sp := cfg.Providers[i]
		var err error
		if plain, err = openKey(r.Box, ws, sp); err != nil {
			return err
		}
		if in.Name != nil {
			for _, o := range cfg.Providers {
				if o.ID != sp.ID && o.Name == *in.Name {
					return Errorf(CodeConflict, "name: a model provider is already named %q", *in.Name)
				}
			}
			sp.Name = *in.Name
		}
		if in.BaseURL != nil {
			sp.BaseURL = *in.BaseURL
		}
		if in.Models != nil {
			sp.Models = in.Models
		}
		if in.TimeoutMs != nil {
			sp.TimeoutMs = *in.TimeoutMs
		}
		if in.APIKey != nil {
			plain = *in.APIKey
		}
		if err := r.checkProvider(ctx, models.Provider{Name: sp.Name, BaseURL: sp.BaseURL, APIKey: plain, Models: sp.Models, TimeoutMs: sp.TimeoutMs}); err != nil {
			return err
		}
		if err := r.sealKey(ws, &sp, plain); err != nil {
			return err
		}
		sp.UpdatedAt = time.Now().UTC()
		cfg.Providers = slices.Delete(cfg.Providers, i, i+1)
		pos := i
		if in.Position != nil {
			if pos, err = position(in.Position, len(cfg.Providers)); err != nil {
				return err
			}
		}
		cfg.Providers = slices.Insert(cfg.Providers, pos, sp)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return shownProvider(cfg, int64(id), plain)
}

func (r *Resolver) deleteModelProvider(ctx context.Context, id int) (bool, error) {
	_, err := r.changeModels(ctx, "deleteModelProvider", func(_ int64, cfg *store.ModelConfig) error {
		i := slices.IndexFunc(cfg.Providers, func(p store.ModelProvider) bool { return p.ID == int64(id) })
		if i < 0 {
			return notFound("model provider", id)
		}
		cfg.Providers = slices.Delete(cfg.Providers, i, i+1)
		return nil
	})
	return err == nil, err
}

func (r *Resolver) updateModelSettings(ctx context.Context, in ModelSettingsInput) (*ModelSettings, error) {
	cfg, err := r.changeModels(ctx, "updateModelSettings", func(_ int64, cfg *store.ModelConfig) error {
		if in.DefaultModel != nil {
			cfg.DefaultModel = *in.DefaultModel
		}
		if in.EmbeddingModel != nil {
			cfg.EmbeddingModel = *in.EmbeddingModel
		}
		if in.AllowedModels != nil {
			if len(in.AllowedModels) > models.MaxModels {
				return Errorf(CodeLimit, "allowedModels: at most %d", models.MaxModels)
			}
			cfg.AllowedModels = in.AllowedModels
		}
		if in.Prices != nil {
			if len(in.Prices) > models.MaxModels {
				return Errorf(CodeLimit, "prices: at most %d", models.MaxModels)
			}
			cfg.Prices = map[string]store.ModelPrice{}
			for i, p := range in.Prices {
				if _, dup := cfg.Prices[p.Model]; dup {
					return Errorf(CodeValidation, "prices[%d].model: %q is priced twice", i, p.Model)
				}
				cfg.Prices[p.Model] = store.ModelPrice{In: p.In, Out: p.Out}
			}
		}
		if in.DailyTokenBudget != nil {
			cfg.DailyTokenBudget = int64(*in.DailyTokenBudget)
		}
		if in.DailySpendBudget != nil {
			cfg.DailySpendBudget = *in.DailySpendBudget
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return r.settings(ctx, cfg), nil
}

func (r *Resolver) modelProviders(ctx context.Context) ([]ModelProvider, error) {
	c, err := owner(ctx, "modelProviders")
	if err != nil {
		return nil, err
	}
	cfg, err := r.Store.ModelConfig(ctx, c.WorkspaceID)
	if err != nil {
		return nil, err
	}
	out := make([]ModelProvider, 0, len(cfg.Providers))
	for i, p := range cfg.Providers {
		plain, err := openKey(r.Box, c.WorkspaceID, p)
		if err != nil {
			return nil, err
		}
		out = append(out, toModelProvider(p, i, plain))
	}
	return out, nil
}

func (r *Resolver) modelSettings(ctx context.Context) (*ModelSettings, error) {
	c, err := owner(ctx, "modelSettings")
	if err != nil {
		return nil, err
	}
	cfg, err := r.Store.ModelConfig(ctx, c.WorkspaceID)
	if err != nil {
		return nil, err
	}
	return r.settings(ctx, cfg), nil
}

// settings shows a configuration; with no providers of its own, the
// workspace has the server's environment's catalog.
func (r *Resolver) settings(ctx context.Context, cfg store.ModelConfig) *ModelSettings {
	s := &ModelSettings{DefaultModel: cfg.DefaultModel, EmbeddingModel: cfg.EmbeddingModel, AllowedModels: orEmpty(cfg.AllowedModels),
		DailyTokenBudget: int(cfg.DailyTokenBudget), DailySpendBudget: cfg.DailySpendBudget, Prices: []ModelPrice{}}
	for m, p := range cfg.Prices {
		s.Prices = append(s.Prices, ModelPrice{Model: m, In: p.In, Out: p.Out})
	}
	slices.SortFunc(s.Prices, func(a, b ModelPrice) int { return strings.Compare(a.Model, b.Model) })
	if tokens, cost, err := r.Store.ModelUsage(ctx, cfg.WorkspaceID, models.Day(time.Now())); err == nil {
		s.TokensToday, s.SpendToday = int(tokens), cost
	}
	if len(cfg.Providers) == 0 && r.EnvModels != nil {
		// The workspace's own settings wait for providers of its own.
		s.FromEnvironment = true
		s.Catalog = r.EnvModels.Catalog()
		s.DefaultModel, s.EmbeddingModel, s.AllowedModels = r.EnvModels.DefaultModel, "", []string{}
	} else {
		mc := models.Config{AllowedModels: cfg.AllowedModels}
		for _, p := range cfg.Providers {
			mc.Providers = append(mc.Providers, models.Provider{Name: p.Name, Models: p.Models})
		}
		s.Catalog = mc.Catalog()
	}
	s.Catalog = orEmpty(s.Catalog)
	return s
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// checkProvider refuses a provider that could never be called: its
// fields' rules, and a base URL the outbound guard refuses (a private
// address without the operator's allowlist).
func (r *Resolver) checkProvider(ctx context.Context, p models.Provider) error {
	if err := models.CheckProvider(p); err != nil {
		return Errorf(CodeValidation, "%v", err)
	}
	if r.CheckURL != nil {
		if err := r.CheckURL(ctx, p.BaseURL); err != nil {
			return Errorf(CodeValidation, "baseUrl: %v", err)
		}
	}
	return nil
}

func (r *Resolver) sealKey(ws int64, p *store.ModelProvider, plain string) error {
	if plain == "" {
		p.APIKey = ""
		return nil
	}
	sealed, err := r.Box.Seal([]byte(plain), ModelKeyAAD(ws, p.ID))
	if err != nil {
		return err
	}
	p.APIKey = sealed
	return nil
}

func position(p *int, n int) (int, error) {
	if p == nil {
		return n, nil
	}
	if *p < 0 || *p > n {
		return 0, Errorf(CodeValidation, "position: must be from 0 to %d", n)
	}
	return *p, nil
}

func shownProvider(cfg store.ModelConfig, id int64, plain string) (*ModelProvider, error) {
	for i, p := range cfg.Providers {
		if p.ID == id {
			mp := toModelProvider(p, i, plain)
			return &mp, nil
		}
	}
	return nil, notFound("model provider", int(id))
}

func toModelProvider(p store.ModelProvider, pos int, plain string) ModelProvider {
	return ModelProvider{ID: int(p.ID), Name: p.Name, BaseURL: p.BaseURL, APIKey: secrets.Mask(plain), Models: orEmpty(p.Models),
		TimeoutMs: p.TimeoutMs, Position: pos, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// runCost sums the cost of a run's trace rows.
func runCost(trace JSON) float64 {
	var rows []struct {
		Cost float64 `json:"cost"`
	}
	if json.Unmarshal([]byte(trace), &rows) != nil {
		return 0
	}
	total := 0.0
	for _, r := range rows {
		total += r.Cost
	}
	return total
}

// runTokens sums the tokens of a run's trace rows.
func runTokens(trace JSON) (in, out int) {
	var rows []struct {
		TokensIn  int `json:"tokensIn"`
		TokensOut int `json:"tokensOut"`
	}
	if json.Unmarshal([]byte(trace), &rows) != nil {
		return 0, 0
	}
	for _, r := range rows {
		in += r.TokensIn
		out += r.TokensOut
	}
	return in, out
}
