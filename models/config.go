// Package models is the workspace's language models: its providers (any
// OpenAI-compatible endpoint), the catalog of models it may use, and the
// client that sends a chat request to the providers that list its model, in
// their order, falling back to the next one when a provider cannot answer.
// Nodes find the client in a run's Services under ClientKey.
package models

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
)

// Limits of a provider configuration.
const (
	MaxProviders      = 20
	MaxModels         = 200 // per provider, and in allowedModels
	MaxNameLength     = 64
	MaxModelLength    = 256
	MaxURLLength      = 2048
	MaxAPIKeyLength   = 8 << 10
	MaxTimeoutMs      = 600000
	DefaultTimeoutMs  = 120000
	EnvBaseURL        = "OPENAI_BASE_URL"
	EnvAPIKey         = "OPENAI_API_KEY"
	EnvDefaultModel   = "WETEL_DEFAULT_MODEL"
	DefaultOpenAIURL  = "https://api.openai.com/v1"
	EnvProviderName   = "env"
	defaultSchemaName = "reply"
)

// Provider is one OpenAI-compatible endpoint and the models it serves.
type Provider struct {
	// Name identifies the provider in traces and messages ("local", "openai").
	Name string `yaml:"name" json:"name"`
	// BaseURL is the API root, ending before /chat/completions
	// ("http://127.0.0.1:11434/v1").
	BaseURL string `yaml:"baseUrl" json:"baseUrl"`
	// APIKey is sent as a bearer token; empty sends none (a local Ollama).
	APIKey string `yaml:"apiKey" json:"apiKey"`
	// Models are the model names this provider is sent.
	Models []string `yaml:"models" json:"models"`
	// TimeoutMs bounds one request to this provider, streaming included;
	// 0 is DefaultTimeoutMs.
	TimeoutMs int `yaml:"timeoutMs" json:"timeoutMs"`
}

// Config is a workspace's model settings.
type Config struct {
	// Providers, in fallback order.
	Providers []Provider
	// DefaultModel is used by runs with no agent model and no modelOverride.
	DefaultModel string
	// EmbeddingModel embeds passages and queries (knowledge bases).
	EmbeddingModel string
	// AllowedModels, when set, narrows the catalog to these models.
	AllowedModels []string
	// Prices are what the catalog's models cost, per million tokens; a
	// model without one costs nothing.
	Prices map[string]Price
	// DailyTokenBudget and DailySpendBudget, when above 0, bound the tokens
	// and the cost of the workspace's model calls per day (UTC): once spent,
	// a call is REJECTED before any request until the day ends.
	DailyTokenBudget int64
	DailySpendBudget float64
}

// Price is what a model costs, per million tokens in the prompt (In) and in
// the reply (Out), in the workspace's currency.
type Price struct {
	In  float64 `yaml:"in" json:"in"`
	Out float64 `yaml:"out" json:"out"`
}

// Cost is the price of a call's tokens.
func (p Price) Cost(in, out int) float64 {
	return (float64(in)*p.In + float64(out)*p.Out) / 1e6
}

// Empty reports whether c configures no provider at all.
func (c Config) Empty() bool { return len(c.Providers) == 0 }

// Catalog is the models the workspace may use: the union of the
// providers' models, in first-listed order, narrowed by AllowedModels.
func (c Config) Catalog() []string {
	var allowed map[string]bool
	if len(c.AllowedModels) > 0 {
		allowed = make(map[string]bool, len(c.AllowedModels))
		for _, m := range c.AllowedModels {
			allowed[m] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range c.Providers {
		for _, m := range p.Models {
			if seen[m] || (allowed != nil && !allowed[m]) {
				continue
			}
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// InCatalog reports whether model is in the catalog.
func (c Config) InCatalog(model string) bool {
	for _, m := range c.Catalog() {
		if m == model {
			return true
		}
	}
	return false
}

// Check reports every problem of c, each naming its field and rule. at
// prefixes the field paths ("modelProviders" in a workspace file).
func (c Config) Check(at string) error {
	var errs []error
	if len(c.Providers) > MaxProviders {
		errs = append(errs, fmt.Errorf("%s: %d providers, at most %d", at, len(c.Providers), MaxProviders))
	}
	names := map[string]bool{}
	listed := map[string]bool{}
	for i, p := range c.Providers {
		where := fmt.Sprintf("%s[%d]", at, i)
		if err := CheckProvider(p); err != nil {
			errs = append(errs, fmt.Errorf("%s.%w", where, err))
		}
		if names[p.Name] {
			errs = append(errs, fmt.Errorf("%s.name: %q is used by another provider", where, p.Name))
		}
		names[p.Name] = true
		for _, m := range p.Models {
			listed[m] = true
		}
	}
	seen := map[string]bool{}
	for i, m := range c.AllowedModels {
		switch {
		case seen[m]:
			errs = append(errs, fmt.Errorf("allowedModels[%d]: %q is named twice", i, m))
		case !listed[m]:
			errs = append(errs, fmt.Errorf("allowedModels[%d]: %q is not a model of any provider", i, m))
		}
		seen[m] = true
	}
	if c.DefaultModel != "" && !c.InCatalog(c.DefaultModel) {
		errs = append(errs, fmt.Errorf("defaultModel: %q is not in the catalog (the providers' models, narrowed by allowedModels)", c.DefaultModel))
	}
	if c.EmbeddingModel != "" && !c.InCatalog(c.EmbeddingModel) {
		errs = append(errs, fmt.Errorf("embeddingModel: %q is not in the catalog", c.EmbeddingModel))
	}
	for m, p := range c.Prices {
		switch {
		case !c.InCatalog(m):
			errs = append(errs, fmt.Errorf("modelPrices.%s: the model is not in the catalog", m))
		case p.In < 0 || p.Out < 0 || math.IsNaN(p.In+p.Out) || math.IsInf(p.In+p.Out, 0):
			errs = append(errs, fmt.Errorf("modelPrices.%s: prices must be 0 or more", m))
		}
	}
	if c.DailyTokenBudget < 0 {
		errs = append(errs, errors.New("dailyTokenBudget: must be 0 (none) or more"))
	}
	if c.DailySpendBudget < 0 || math.IsNaN(c.DailySpendBudget) || math.IsInf(c.DailySpendBudget, 0) {
		errs = append(errs, errors.New("dailySpendBudget: must be 0 (none) or more"))
	}
	return errors.Join(errs...)
}

// CheckProvider checks one provider; the error starts with the field name.
func CheckProvider(p Provider) error {
	var errs []error
	if strings.TrimSpace(p.Name) == "" || len(p.Name) > MaxNameLength || strings.ContainsAny(p.Name, " \t\r\n") {
		errs = append(errs, fmt.Errorf("name: must be 1 to %d characters without spaces", MaxNameLength))
	}
	if err := CheckBaseURL(p.BaseURL); err != nil {
		errs = append(errs, err)
	}
	if len(p.APIKey) > MaxAPIKeyLength || strings.ContainsAny(p.APIKey, "\r\n") {
		errs = append(errs, fmt.Errorf("apiKey: must be at most %d bytes on one line", MaxAPIKeyLength))
	}
	if len(p.Models) == 0 || len(p.Models) > MaxModels {
		errs = append(errs, fmt.Errorf("models: must list 1 to %d models", MaxModels))
	}
	seen := map[string]bool{}
	for i, m := range p.Models {
		switch {
		case strings.TrimSpace(m) == "" || len(m) > MaxModelLength:
			errs = append(errs, fmt.Errorf("models[%d]: must be 1 to %d characters", i, MaxModelLength))
		case seen[m]:
			errs = append(errs, fmt.Errorf("models[%d]: %q is named twice", i, m))
		}
		seen[m] = true
	}
	if p.TimeoutMs < 0 || p.TimeoutMs > MaxTimeoutMs {
		errs = append(errs, fmt.Errorf("timeoutMs: must be 0 (the default, %d) to %d", DefaultTimeoutMs, MaxTimeoutMs))
	}
	return errors.Join(errs...)
}

// CheckBaseURL refuses a base URL that is not an absolute http(s) URL. The
// address it resolves to is checked by the outbound guard on every call.
func CheckBaseURL(raw string) error {
	if len(raw) > MaxURLLength {
		return fmt.Errorf("baseUrl: over %d bytes", MaxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return errors.New("baseUrl: must be an absolute http or https URL without credentials")
	}
	return nil
}

// FromEnv is the quick start's provider, read from OPENAI_BASE_URL (default
// the OpenAI API), OPENAI_API_KEY and WETEL_DEFAULT_MODEL: one provider named
// "env" serving the default model. ok is false when neither OPENAI_BASE_URL
// nor OPENAI_API_KEY is set; a default model is then required.
func FromEnv(getenv func(string) string) (c Config, ok bool, err error) {
	base, key, model := getenv(EnvBaseURL), getenv(EnvAPIKey), strings.TrimSpace(getenv(EnvDefaultModel))
	if base == "" && key == "" {
		return Config{}, false, nil
	}
	if base == "" {
		base = DefaultOpenAIURL
	}
	if model == "" {
		return Config{}, false, fmt.Errorf("%s: must name the model to use when %s or %s is set", EnvDefaultModel, EnvBaseURL, EnvAPIKey)
	}
	c = Config{Providers: []Provider{{Name: EnvProviderName, BaseURL: base, APIKey: key, Models: []string{model}}}, DefaultModel: model}
	if err := c.Check("environment"); err != nil {
		return Config{}, false, fmt.Errorf("%s: %w", EnvBaseURL, err)
	}
	return c, true, nil
}
