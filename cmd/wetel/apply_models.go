package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/workspace"
)

// applyModels declares the file's model providers, by name and in the
// file's order (the fallback order), then its model settings. Providers on
// the server that the file does not name are left as they are.
func (a *applier) applyModels(ctx context.Context, ws *workspace.File) error {
	if len(ws.ModelProviders) == 0 && ws.DefaultModel == "" && ws.EmbeddingModel == "" && ws.AllowedModels == nil {
		return nil
	}
	type shown struct {
		ID        int
		Name      string
		BaseURL   string
		APIKey    string
		Models    []string
		TimeoutMs int
		Position  int
	}
	var have struct {
		ModelProviders []shown
		ModelSettings  struct {
			DefaultModel, EmbeddingModel string
			AllowedModels                []string
		}
	}
	if err := a.c.Do(ctx, `{ modelProviders { id name baseUrl apiKey models timeoutMs position }
		modelSettings { defaultModel embeddingModel allowedModels } }`, nil, &have); err != nil {
		return err
	}
	count := len(have.ModelProviders)
	for i, p := range ws.ModelProviders {
		input := map[string]any{"name": p.Name, "baseUrl": p.BaseURL, "apiKey": p.APIKey, "models": p.Models, "timeoutMs": p.TimeoutMs}
		j := slices.IndexFunc(have.ModelProviders, func(s shown) bool { return s.Name == p.Name })
		if j < 0 {
			input["position"] = min(i, count)
			if err := a.c.Do(ctx, `mutation($i: ModelProviderInput!) { createModelProvider(input: $i) { id } }`, map[string]any{"i": input}, nil); err != nil {
				return fmt.Errorf("modelProviders[%d] (%s): %w", i, p.Name, err)
			}
			count++
			a.say("model provider %q: created", p.Name)
			continue
		}
		cur := have.ModelProviders[j]
		if cur.BaseURL == p.BaseURL && slices.Equal(cur.Models, p.Models) && cur.TimeoutMs == p.TimeoutMs &&
			cur.APIKey == secrets.Mask(p.APIKey) && cur.Position == min(i, count-1) {
			continue
		}
		input["position"] = min(i, count-1)
		if err := a.c.Do(ctx, `mutation($id: Int!, $i: UpdateModelProviderInput!) { updateModelProvider(id: $id, input: $i) { id } }`,
			map[string]any{"id": cur.ID, "i": input}, nil); err != nil {
			return fmt.Errorf("modelProviders[%d] (%s): %w", i, p.Name, err)
		}
		a.say("model provider %q: updated", p.Name)
	}
	set := have.ModelSettings
	if (ws.DefaultModel == "" || ws.DefaultModel == set.DefaultModel) && (ws.EmbeddingModel == "" || ws.EmbeddingModel == set.EmbeddingModel) &&
		(ws.AllowedModels == nil || slices.Equal(ws.AllowedModels, set.AllowedModels)) {
		return nil
	}
	input := map[string]any{}
	if ws.DefaultModel != "" {
		input["defaultModel"] = ws.DefaultModel
	}
	if ws.EmbeddingModel != "" {
		input["embeddingModel"] = ws.EmbeddingModel
	}
	if ws.AllowedModels != nil {
		input["allowedModels"] = ws.AllowedModels
	}
	if err := a.c.Do(ctx, `mutation($i: ModelSettingsInput!) { updateModelSettings(input: $i) { defaultModel } }`, map[string]any{"i": input}, nil); err != nil {
		return fmt.Errorf("model settings: %w", err)
	}
	a.say("model settings: updated")
	return nil
}
