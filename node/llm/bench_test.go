package llm_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/models/modeltest"
	"github.com/wetel/wetel/node"
)

// instant is a Chatter that answers at once, so a run measures the node's
// own work: templates, messages, the trace row.
type instant struct{}

func (instant) Chat(_ context.Context, r models.Request) (models.Response, error) {
	if r.OnChunk != nil {
		r.OnChunk("ok")
	}
	return models.Response{Text: "ok", Model: r.Model, Provider: "p", TokensIn: 10, TokensOut: 1}, nil
}

func reportP50(b *testing.B, d []time.Duration, unit string) {
	slices.Sort(d)
	if len(d) > 0 {
		b.ReportMetric(float64(d[len(d)/2].Nanoseconds())/1e3, unit)
		b.ReportMetric(float64(d[len(d)*99/100].Nanoseconds())/1e3, "p99-"+unit)
	}
}

// BenchmarkLLMNodeOverhead: one run of start → llm with a model that
// answers at once; the node's own cost per call, excluding the model.
func BenchmarkLLMNodeOverhead(b *testing.B) {
	p := plan(b, llmGraph(`{"promptTemplate":"Classify this message: \"{{userMessage}}\". One word.","outputVar":"out"}`))
	svc := node.NewServices(models.ClientKey.With(models.Chatter(instant{})))
	eng, _ := engine.New(engine.Options{})
	hist := history("hello", "hi, how can I help?", "where is my order?")
	agent := node.Agent{Persona: "You are a helpful assistant.", DefaultModel: "m"}
	d := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res := eng.Run(context.Background(), p, engine.Input{Services: svc, Agent: agent,
			Vars: map[string]any{"userMessage": "where is my order?", "conversationHistory": hist}})
		d = append(d, time.Since(start))
		if res.Status != "COMPLETED" {
			b.Fatal(res.Error)
		}
	}
	b.StopTimer()
	reportP50(b, d, "µs/run")
}

// BenchmarkLLMCallLocalFake: the whole client path to a fake
// OpenAI-compatible server on loopback (HTTP, JSON, the guarded client),
// non-streamed and streamed; for streaming, the time to the first chunk.
func BenchmarkLLMCallLocalFake(b *testing.B) {
	fake := modeltest.New(b, func(modeltest.Request) modeltest.Answer {
		return modeltest.Answer{Text: "order_status", Chunks: []string{"order", "_status"}, TokensIn: 20, TokensOut: 2}
	})
	c, err := models.New(models.Config{DefaultModel: "m", Providers: []models.Provider{{Name: "p", BaseURL: fake.URL, Models: []string{"m"}}}}, modeltest.Client(b).HTTP())
	if err != nil {
		b.Fatal(err)
	}
	req := models.Request{Messages: []models.Message{{Role: "user", Content: "Classify: where is my order?"}}}
	b.Run("json", func(b *testing.B) {
		d := make([]time.Duration, 0, b.N)
		for i := 0; i < b.N; i++ {
			start := time.Now()
			if _, err := c.Chat(context.Background(), req); err != nil {
				b.Fatal(err)
			}
			d = append(d, time.Since(start))
		}
		reportP50(b, d, "µs/call")
	})
	b.Run("stream-first-chunk", func(b *testing.B) {
		d := make([]time.Duration, 0, b.N)
		for i := 0; i < b.N; i++ {
			start := time.Now()
			var first time.Duration
			r := req
			r.OnChunk = func(string) {
				if first == 0 {
					first = time.Since(start)
				}
			}
			if _, err := c.Chat(context.Background(), r); err != nil {
				b.Fatal(err)
			}
			d = append(d, first)
		}
		reportP50(b, d, "µs/first-chunk")
	})
}
