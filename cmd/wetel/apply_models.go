package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/workspace"
)

// applyModels declares the file's model providers, by name and in the
// file's order (the fallback order), then its model settings (the daily
// budgets are the file's: left out, none). Providers on
// the server that the file does not name are left as they are.
func (a *applier) applyModels(ctx context.Context, ws *workspace.File) error {
	if len(ws.ModelProviders) == 0 && ws.DefaultModel == "" && ws.EmbeddingModel == "" && ws.AllowedModels == nil &&
		ws.ModelPrices == nil && ws.DailyTokenBudget == 0 && ws.DailySpendBudget == 0 {
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
			Prices                       []struct {
				Model   string
				In, Out float64
			}
			DailyTokenBudget int64
			DailySpendBudget float64
		}
	}
	if err := a.c.Do(ctx, `{ modelProviders { id name baseUrl apiKey models timeoutMs position }
		modelSettings { defaultModel embeddingModel allowedModels prices { model in out } dailyTokenBudget dailySpendBudget } }`, nil, &have); err != nil {
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
	samePrices := len(ws.ModelPrices) == len(set.Prices)
	for _, p := range set.Prices {
		if w, ok := ws.ModelPrices[p.Model]; !ok || w.In != p.In || w.Out != p.Out {
			samePrices = false
		}
	}
	if (ws.DefaultModel == "" || ws.DefaultModel == set.DefaultModel) && (ws.EmbeddingModel == "" || ws.EmbeddingModel == set.EmbeddingModel) &&
		(ws.AllowedModels == nil || slices.Equal(ws.AllowedModels, set.AllowedModels)) && (ws.ModelPrices == nil || samePrices) &&
		ws.DailyTokenBudget == set.DailyTokenBudget && ws.DailySpendBudget == set.DailySpendBudget {
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
	if ws.ModelPrices != nil {
		prices := []map[string]any{}
		for m, p := range ws.ModelPrices {
			prices = append(prices, map[string]any{"model": m, "in": p.In, "out": p.Out})
		}
		input["prices"] = prices
	}
	input["dailyTokenBudget"], input["dailySpendBudget"] = ws.DailyTokenBudget, ws.DailySpendBudget
	if err := a.c.Do(ctx, `mutation($i: ModelSettingsInput!) { updateModelSettings(input: $i) { defaultModel } }`, map[string]any{"i": input}, nil); err != nil {
		return fmt.Errorf("model settings: %w", err)
	}
	a.say("model settings: updated")
	return nil
}
