package models_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/models/modeltest"
)

func TestConfigCheck(t *testing.T) {
	ok := models.Provider{Name: "local", BaseURL: "http://127.0.0.1:11434/v1", Models: []string{"llama3.2"}}
	cases := []struct {
		name string
		cfg  models.Config
		want string // "" for valid
	}{
		{"valid", models.Config{Providers: []models.Provider{ok}, DefaultModel: "llama3.2"}, ""},
		{"not http", models.Config{Providers: []models.Provider{{Name: "x", BaseURL: "ftp://h/v1", Models: []string{"m"}}}}, "p[0].baseUrl: must be an absolute http or https URL"},
		{"no models", models.Config{Providers: []models.Provider{{Name: "x", BaseURL: "http://h/v1"}}}, "p[0].models: must list 1 to"},
		{"model twice", models.Config{Providers: []models.Provider{{Name: "x", BaseURL: "http://h/v1", Models: []string{"m", "m"}}}}, `p[0].models[1]: "m" is named twice`},
		{"provider twice", models.Config{Providers: []models.Provider{ok, ok}}, `p[1].name: "local" is used by another provider`},
		{"default outside", models.Config{Providers: []models.Provider{ok}, DefaultModel: "gpt-4o"}, `defaultModel: "gpt-4o" is not in the catalog`},
		{"allowed unknown", models.Config{Providers: []models.Provider{ok}, AllowedModels: []string{"gpt-4o"}}, `allowedModels[0]: "gpt-4o" is not a model of any provider`},
		{"default not allowed", models.Config{Providers: []models.Provider{{Name: "x", BaseURL: "http://h/v1", Models: []string{"a", "b"}}}, AllowedModels: []string{"a"}, DefaultModel: "b"}, `defaultModel: "b" is not in the catalog`},
		{"bad timeout", models.Config{Providers: []models.Provider{{Name: "x", BaseURL: "http://h/v1", Models: []string{"a"}, TimeoutMs: -1}}}, "p[0].timeoutMs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.Check("p")
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestCatalogIsTheUnionNarrowed(t *testing.T) {
	cfg := models.Config{Providers: []models.Provider{
		{Name: "a", BaseURL: "http://a/v1", Models: []string{"m1", "m2"}},
		{Name: "b", BaseURL: "http://b/v1", Models: []string{"m2", "m3"}},
	}}
	if got := strings.Join(cfg.Catalog(), ","); got != "m1,m2,m3" {
		t.Errorf("catalog %s", got)
	}
	cfg.AllowedModels = []string{"m3", "m2"}
	if got := strings.Join(cfg.Catalog(), ","); got != "m2,m3" {
		t.Errorf("narrowed catalog %s", got)
	}
}

func TestFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if _, ok, err := models.FromEnv(env(nil)); ok || err != nil {
		t.Errorf("nothing set: ok %v err %v", ok, err)
	}
	if _, _, err := models.FromEnv(env(map[string]string{"OPENAI_API_KEY": "sk-x"})); err == nil || !strings.Contains(err.Error(), "WETEL_DEFAULT_MODEL") {
		t.Errorf("no model: %v", err)
	}
	c, ok, err := models.FromEnv(env(map[string]string{"OPENAI_API_KEY": "sk-x", "WETEL_DEFAULT_MODEL": "gpt-4o-mini"}))
	if !ok || err != nil || c.Providers[0].BaseURL != models.DefaultOpenAIURL || c.DefaultModel != "gpt-4o-mini" {
		t.Errorf("key only: %+v %v %v", c, ok, err)
	}
	if _, _, err := models.FromEnv(env(map[string]string{"OPENAI_BASE_URL": "localhost:11434", "WETEL_DEFAULT_MODEL": "m"})); err == nil {
		t.Error("a base URL without a scheme was taken")
	}
}

// client builds a client over the fakes, one provider each, all serving model m.
func client(t *testing.T, fakes ...*modeltest.Server) *models.Client {
	t.Helper()
	cfg := models.Config{DefaultModel: "m"}
	for i, f := range fakes {
		cfg.Providers = append(cfg.Providers, models.Provider{Name: string(rune('a' + i)), BaseURL: f.URL, APIKey: "sk-secret-" + string(rune('a'+i)), Models: []string{"m"}})
	}
	c, err := models.New(cfg, modeltest.Client(t).HTTP())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func fixed(a modeltest.Answer) func(modeltest.Request) modeltest.Answer {
	return func(modeltest.Request) modeltest.Answer { return a }
}

func TestFallbackInOrder(t *testing.T) {
	limited := modeltest.New(t, fixed(modeltest.Answer{Status: 429, RetryAfter: "1"}))
	broken := modeltest.New(t, fixed(modeltest.Answer{Status: 500}))
	good := modeltest.New(t, fixed(modeltest.Answer{Text: "hello there", TokensIn: 12, TokensOut: 3}))
	c := client(t, limited, broken, good)
	res, err := c.Chat(context.Background(), models.Request{Model: "m", Messages: []models.Message{{Role: "user", Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "hello there" || res.Provider != "c" || res.TokensIn != 12 || res.TokensOut != 3 {
		t.Errorf("response %+v", res)
	}
	want := []models.Fallback{{Provider: "a", ErrorClass: "RATE_LIMITED", HTTPStatus: 429}, {Provider: "b", ErrorClass: "UPSTREAM_ERROR", HTTPStatus: 500}}
	if len(res.Fallbacks) != 2 || res.Fallbacks[0] != want[0] || res.Fallbacks[1] != want[1] {
		t.Errorf("fallbacks %+v", res.Fallbacks)
	}
	if got := good.Requests(); len(got) != 1 || got[0].Authorization != "Bearer sk-secret-c" {
		t.Errorf("requests to the good one: %+v", got)
	}
}

func TestNoFallbackOnRejectedOrInvalid(t *testing.T) {
	for _, a := range []modeltest.Answer{{Status: 400}, {Garbage: true}} {
		first := modeltest.New(t, fixed(a))
		second := modeltest.New(t, fixed(modeltest.Answer{Text: "never"}))
		_, err := client(t, first, second).Chat(context.Background(), models.Request{Model: "m"})
		code := failure.Classify(err)
		if code != failure.Rejected && code != failure.InvalidData {
			t.Errorf("%+v: class %s (%v)", a, code, err)
		}
		if n := len(second.Requests()); n != 0 {
			t.Errorf("%+v: fell back on %s", a, code)
		}
	}
}

func TestAllGaveUpKeepsNoKey(t *testing.T) {
	down := modeltest.New(t, fixed(modeltest.Answer{Status: 503}))
	_, err := client(t, down).Chat(context.Background(), models.Request{Model: "m"})
	if failure.Classify(err) != failure.UpstreamError {
		t.Fatalf("class %s: %v", failure.Classify(err), err)
	}
	if strings.Contains(err.Error(), "sk-secret") || !strings.Contains(err.Error(), "provider a") {
		t.Errorf("message %q", err)
	}
}

func TestModelOutsideCatalogIsRejectedBeforeAnyCall(t *testing.T) {
	f := modeltest.New(t, fixed(modeltest.Answer{Text: "x"}))
	noDefault, err := models.New(models.Config{Providers: []models.Provider{{Name: "a", BaseURL: f.URL, Models: []string{"m"}}}}, modeltest.Client(t).HTTP())
	if err != nil {
		t.Fatal(err)
	}
	for m, c := range map[string]*models.Client{"gpt-5": client(t, f), "": noDefault} {
		_, err := c.Chat(context.Background(), models.Request{Model: m})
		var fe *failure.Error
		if !errors.As(err, &fe) || fe.Code != failure.Rejected {
			t.Errorf("model %q: %v", m, err)
		}
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestStreaming(t *testing.T) {
	f := modeltest.New(t, fixed(modeltest.Answer{Chunks: []string{"Hel", "lo ", "world"}, TokensIn: 5, TokensOut: 3}))
	var got []string
	res, err := client(t, f).Chat(context.Background(), models.Request{Model: "m", OnChunk: func(s string) { got = append(got, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "Hel|lo |world" || res.Text != "Hello world" || res.TokensOut != 3 {
		t.Errorf("chunks %q, response %+v", got, res)
	}
	if !f.Requests()[0].Stream {
		t.Error("not asked to stream")
	}
}

func TestStreamFailures(t *testing.T) {
	t.Run("cut", func(t *testing.T) {
		cut := modeltest.New(t, fixed(modeltest.Answer{Chunks: []string{"half "}, Cut: true}))
		backup := modeltest.New(t, fixed(modeltest.Answer{Text: "never"}))
		_, err := client(t, cut, backup).Chat(context.Background(), models.Request{Model: "m", OnChunk: func(string) {}})
		if failure.Classify(err) != failure.UpstreamError {
			t.Errorf("class %s: %v", failure.Classify(err), err)
		}
		if len(backup.Requests()) != 0 {
			t.Error("fell back after text was published")
		}
	})
	t.Run("cut before any text falls back", func(t *testing.T) {
		cut := modeltest.New(t, fixed(modeltest.Answer{Chunks: []string{}, Cut: true}))
		backup := modeltest.New(t, fixed(modeltest.Answer{Text: "fine"}))
		res, err := client(t, cut, backup).Chat(context.Background(), models.Request{Model: "m", OnChunk: func(string) {}})
		if err != nil || res.Text != "fine" || len(res.Fallbacks) != 1 {
			t.Errorf("%+v %v", res, err)
		}
	})
	t.Run("endless", func(t *testing.T) {
		endless := modeltest.New(t, fixed(modeltest.Answer{Endless: true}))
		_, err := client(t, endless).Chat(context.Background(), models.Request{Model: "m", OnChunk: func(string) {}})
		if failure.Classify(err) != failure.UpstreamError || !strings.Contains(err.Error(), "over") {
			t.Errorf("class %s: %v", failure.Classify(err), err)
		}
	})
}

func TestProviderTimeoutFallsBack(t *testing.T) {
	slow := modeltest.New(t, fixed(modeltest.Answer{Hang: true}))
	good := modeltest.New(t, fixed(modeltest.Answer{Text: "ok"}))
	cfg := models.Config{Providers: []models.Provider{
		{Name: "slow", BaseURL: slow.URL, Models: []string{"m"}, TimeoutMs: 50},
		{Name: "good", BaseURL: good.URL, Models: []string{"m"}},
	}}
	c, err := models.New(cfg, modeltest.Client(t).HTTP())
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Chat(context.Background(), models.Request{Model: "m"})
	if err != nil || res.Provider != "good" || len(res.Fallbacks) != 1 || res.Fallbacks[0].ErrorClass != "TIMEOUT" {
		t.Errorf("%+v %v", res, err)
	}
}

func TestCancelStopsTheCall(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	f := modeltest.New(t, fixed(modeltest.Answer{Chunks: []string{"first "}, Hang: true, Release: release}))
	backup := modeltest.New(t, fixed(modeltest.Answer{Text: "never"}))
	ctx, cancel := context.WithCancel(context.Background())
	_, err := client(t, f, backup).Chat(ctx, models.Request{Model: "m", OnChunk: func(string) { cancel() }})
	if err == nil || len(backup.Requests()) != 0 {
		t.Errorf("err %v, backup asked %d times", err, len(backup.Requests()))
	}
}

func TestRefusedAddressWithoutAllowlist(t *testing.T) {
	f := modeltest.New(t, fixed(modeltest.Answer{Text: "x"}))
	cfg := models.Config{Providers: []models.Provider{{Name: "local", BaseURL: f.URL, Models: []string{"m"}}}}
	hc, err := outboundDefault()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := models.New(cfg, hc)
	_, err = c.Chat(context.Background(), models.Request{Model: "m"})
	// A call the guard refuses is UNREACHABLE and was never sent.
	if failure.Classify(err) != failure.Unreachable || len(f.Requests()) != 0 {
		t.Errorf("class %s: %v", failure.Classify(err), err)
	}
}

func TestStructuredRequestAndTemperatureZero(t *testing.T) {
	f := modeltest.New(t, fixed(modeltest.Answer{Text: `{"a":1}`}))
	zero := 0.0
	_, err := client(t, f).Chat(context.Background(), models.Request{Model: "m", Temperature: &zero, MaxTokens: 7, Schema: []byte(`{"type":"object"}`)})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Requests()[0]
	if r.ResponseFormat == nil || r.ResponseFormat.Type != "json_schema" || string(r.ResponseFormat.JSONSchema.Schema) != `{"type":"object"}` {
		t.Errorf("response_format %+v", r.ResponseFormat)
	}
	if r.Temperature == nil || *r.Temperature > 1e-6 || r.MaxTokens != 7 {
		t.Errorf("temperature %v max_tokens %d", r.Temperature, r.MaxTokens)
	}
}

func TestDailyBudgets(t *testing.T) {
	f := modeltest.New(t, fixed(modeltest.Answer{Text: "ok", TokensIn: 800, TokensOut: 200}))
	day := time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC)
	now := func() time.Time { return day }
	base := models.Config{DefaultModel: "m", Providers: []models.Provider{{Name: "a", BaseURL: f.URL, Models: []string{"m"}}},
		Prices: map[string]models.Price{"m": {In: 2.5, Out: 10}}}
	t.Run("tokens", func(t *testing.T) {
		cfg := base
		cfg.DailyTokenBudget = 1500
		c, err := models.New(cfg, modeltest.Client(t).HTTP(), models.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Chat(context.Background(), models.Request{})
		if err != nil || res.Cost != 0.004 {
			t.Fatalf("first call: cost %v, %v", res.Cost, err)
		}
		if _, err := c.Chat(context.Background(), models.Request{}); err != nil {
			t.Fatalf("second call (1000 of 1500 used before it): %v", err)
		}
		before := len(f.Requests())
		_, err = c.Chat(context.Background(), models.Request{})
		if failure.Classify(err) != failure.Rejected || !strings.Contains(err.Error(), "daily token budget of 1500 is spent (2000 used on 2026-12-01 UTC)") {
			t.Fatalf("third call: %v", err)
		}
		if len(f.Requests()) != before {
			t.Error("a request was sent over budget")
		}
		day = day.Add(2 * time.Hour) // the next day
		if _, err := c.Chat(context.Background(), models.Request{}); err != nil {
			t.Errorf("the next day: %v", err)
		}
	})
	t.Run("spend", func(t *testing.T) {
		cfg := base
		cfg.DailySpendBudget = 0.005
		c, _ := models.New(cfg, modeltest.Client(t).HTTP(), models.Options{Now: now})
		_, _ = c.Chat(context.Background(), models.Request{})
		_, _ = c.Chat(context.Background(), models.Request{})
		if _, err := c.Chat(context.Background(), models.Request{}); failure.Classify(err) != failure.Rejected || !strings.Contains(err.Error(), "daily spend budget") {
			t.Errorf("over the spend budget: %v", err)
		}
	})
	bad := base
	bad.Prices = map[string]models.Price{"gpt-9": {In: 1}}
	if err := bad.Check("p"); err == nil || !strings.Contains(err.Error(), "modelPrices.gpt-9: the model is not in the catalog") {
		t.Errorf("a price outside the catalog: %v", err)
	}
}
