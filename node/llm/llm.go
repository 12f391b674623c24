// Package llm is the llm node: it calls a language model of the workspace's
// catalog (models.ClientKey) with a templated prompt, the agent's persona as
// system prompt and the conversation so far, and stores the reply, or the
// parsed object when outputSchema is set.
package llm

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/models"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/tmpl"
)

// How much of conversationHistory is sent (the rule for long transcripts):
// the most recent messages, at most MaxHistoryMessages of them and at most
// MaxHistoryBytes of text together, whole messages only, oldest dropped first.
const (
	MaxHistoryMessages = 20
	MaxHistoryBytes    = 16 << 10
)

// MaxSchemaBytes bounds outputSchema.
const MaxSchemaBytes = 64 << 10

func init() {
	node.Register(&node.Spec{
		Type:    "llm",
		Summary: "Calls the agent's language model with a templated prompt and stores the reply in outputVar.",
		Description: "Use it for anything that needs language understanding or generation: answering, classifying " +
			"intent, extracting a value from free text. outputVar holds the reply text, or the parsed object when " +
			"outputSchema is set (a reply that does not match is INVALID_DATA, and outputVar is not written).\n\n" +
			"The model is modelOverride, else the agent's default model, else the workspace's defaultModel; one outside " +
			"the workspace's catalog fails the node REJECTED before any request. The request goes to the providers that " +
			"list the model, in order: one that is unreachable, rate-limited, failing (5xx) or too slow gives way to the " +
			"next, and the node fails only when all gave up. The system prompt is systemPrompt, else the agent's persona. " +
			fmt.Sprintf("Then the conversation so far (conversationHistory: the latest %d messages, at most %d KB of text, "+
				"oldest dropped first), then the rendered promptTemplate as the last user message.\n\n", MaxHistoryMessages, MaxHistoryBytes>>10) +
			"With stream: true the node also says the reply: each piece is published as it arrives (a Message event " +
			"with isFinal false), then the whole reply as one message (isFinal true); a stream cut short fails the node " +
			"and says nothing. The trace row carries model, provider, tokensIn, tokensOut, cost and the fallbacks tried, never " +
			"the prompt or the reply. Once the workspace's daily token or spend budget is spent the node fails REJECTED " +
			"before any request. Providers, the catalog and budgets: docs/models.md.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Fields: []node.Field{
			{Name: "promptTemplate", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: tmpl.MaxSourceBytes, Description: "The prompt, as a Handlebars template."},
			{Name: "outputVar", Kind: node.KindString, Format: node.FormatVariable, Required: true, MaxLength: 128, Description: "The variable the reply is stored in."},
			{Name: "systemPrompt", Kind: node.KindString, Format: node.FormatTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "Overrides the agent's persona as the system prompt."},
			{Name: "modelOverride", Kind: node.KindString, MaxLength: models.MaxModelLength, Description: "A model from the workspace's catalog to use instead of the agent's default."},
			{Name: "knowledgeBaseId", Kind: node.KindInteger, Min: node.Float(1), Description: "A knowledge base to retrieve passages from (not available in this build: refused at save)."},
			{Name: "stream", Kind: node.KindBoolean, Default: false, Description: "Say the reply to the user, streamed as it is generated."},
			{Name: "outputSchema", Kind: node.KindObject, Values: &node.Field{Kind: node.KindAny}, Description: "A JSON Schema the reply must match; outputVar then holds the parsed object. Providers that support it are asked for structured output."},
			{Name: "temperature", Kind: node.KindNumber, Min: node.Float(0), Max: node.Float(2), Description: "Sampling temperature, 0 to 2."},
			{Name: "maxTokens", Kind: node.KindInteger, Min: node.Float(1), Max: node.Float(128000), Description: "Cap on the reply's length in tokens."},
		},
		Examples: node.Examples(`{"promptTemplate": "Classify this message: \"{{userMessage}}\". Respond with ONLY one word: order_status, or general.", "outputVar": "intent"}`,
			`{"promptTemplate": "Extract the order number from: {{userMessage}}", "outputVar": "order", "temperature": 0, "outputSchema": {"type": "object", "properties": {"orderNumber": {"type": "string"}}, "required": ["orderNumber"]}}`),
		Rules: rules,
		Check: check,
		Runs:  node.OnServer | node.Offline,
		Build: build,
	})
}

type config struct {
	PromptTemplate string          `json:"promptTemplate"`
	OutputVar      string          `json:"outputVar"`
	SystemPrompt   string          `json:"systemPrompt"`
	ModelOverride  string          `json:"modelOverride"`
	Stream         bool            `json:"stream"`
	OutputSchema   json.RawMessage `json:"outputSchema"`
	Temperature    *float64        `json:"temperature"`
	MaxTokens      int             `json:"maxTokens"`
}

// check refuses what the field specs cannot: a knowledge base (none exist
// in this build) and an outputSchema that is not a JSON Schema.
func check(cfg map[string]any) []node.FieldError {
	var errs []node.FieldError
	if _, ok := cfg["knowledgeBaseId"]; ok {
		errs = append(errs, node.FieldError{Path: "knowledgeBaseId", Rule: "knowledge bases are not available yet in this build: leave knowledgeBaseId out"})
	}
	if s, ok := cfg["outputSchema"]; ok {
		raw, err := json.Marshal(s)
		switch {
		case err != nil:
			errs = append(errs, node.FieldError{Path: "outputSchema", Rule: err.Error()})
		case len(raw) > MaxSchemaBytes:
			errs = append(errs, node.FieldError{Path: "outputSchema", Rule: fmt.Sprintf("must be at most %d bytes", MaxSchemaBytes)})
		default:
			if _, err := compileSchema(raw); err != nil {
				errs = append(errs, node.FieldError{Path: "outputSchema", Rule: "is not a valid JSON Schema: " + err.Error()})
			}
		}
	}
	return errs
}

type executor struct {
	cfg    config
	prompt *tmpl.Template
	system *tmpl.Template // nil: the agent's persona
	schema *schema        // nil: a text reply
}

func build(b node.BuildInput) (node.Executor, error) {
	e := &executor{}
	if err := b.Decode(&e.cfg); err != nil {
		return nil, err
	}
	var err error
	if e.prompt, err = tmpl.Parse(e.cfg.PromptTemplate); err != nil {
		return nil, fmt.Errorf("promptTemplate: %w", err)
	}
	if e.cfg.SystemPrompt != "" {
		if e.system, err = tmpl.Parse(e.cfg.SystemPrompt); err != nil {
			return nil, fmt.Errorf("systemPrompt: %w", err)
		}
	}
	if len(e.cfg.OutputSchema) > 0 {
		if e.schema, err = compileSchema(e.cfg.OutputSchema); err != nil {
			return nil, fmt.Errorf("outputSchema: %w", err)
		}
	}
	return e, nil
}

func (e *executor) Execute(ctx context.Context, x *node.Exec) (node.Outcome, error) {
	chat, ok := models.ClientKey.Get(x.Services)
	if !ok || chat == nil {
		return node.Outcome{}, node.Unavailable(x.NodeType, x.NodeID, "no language model is configured here: declare modelProviders in the workspace "+
			"(wetel run --workspace), or set OPENAI_BASE_URL and WETEL_DEFAULT_MODEL; or run in mock mode with a mockResponse")
	}
	model := e.cfg.ModelOverride
	if model == "" {
		model = x.Agent.DefaultModel // else the workspace's default, chosen by the client
	}
	prompt, err := e.prompt.Render(x.Vars)
	if err != nil {
		return node.Outcome{}, fmt.Errorf("promptTemplate: %w", err)
	}
	system := x.Agent.Persona
	if e.system != nil {
		if system, err = e.system.Render(x.Vars); err != nil {
			return node.Outcome{}, fmt.Errorf("systemPrompt: %w", err)
		}
	}
	req := models.Request{Model: model, Messages: messages(system, x.Vars, prompt), Temperature: e.cfg.Temperature,
		MaxTokens: e.cfg.MaxTokens, Schema: e.cfg.OutputSchema}
	streaming := e.cfg.Stream && e.schema == nil
	if streaming {
		req.OnChunk = x.Stream
	}
	ctx, stop := callContext(ctx, x)
	resp, err := chat.Chat(ctx, req)
	stop()
	x.NoteModel(report(resp))
	model = resp.Model
	if err != nil {
		return node.Outcome{}, fmt.Errorf("llm node %q: model %q: %w", x.NodeID, model, err)
	}
	if e.schema == nil {
		x.Vars[e.cfg.OutputVar] = resp.Text
		if streaming {
			x.Say(resp.Text, "")
		}
		return node.Outcome{}, nil
	}
	v, err := e.schema.parse(resp.Text)
	if err != nil {
		return node.Outcome{}, &failure.Error{Code: failure.InvalidData,
			Message: fmt.Sprintf("llm node %q: model %q: the structured reply does not match outputSchema: %v", x.NodeID, model, err)}
	}
	x.Vars[e.cfg.OutputVar] = v
	return node.Outcome{}, nil
}

// callContext bounds the call by the run's deadline and cancels it when a
// newer message interrupts the turn (issue: "an interrupt cancels the call
// in flight").
func callContext(ctx context.Context, x *node.Exec) (context.Context, func()) {
	var cancel context.CancelFunc
	if !x.Deadline.IsZero() {
		ctx, cancel = context.WithDeadline(ctx, x.Deadline)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	if x.Interrupt == nil {
		return ctx, cancel
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-x.Interrupt:
			cancel()
		case <-done:
		}
	}()
	return ctx, func() { close(done); cancel() }
}

func report(r models.Response) *node.ModelReport {
	rep := &node.ModelReport{Model: r.Model, Provider: r.Provider, TokensIn: r.TokensIn, TokensOut: r.TokensOut, Cost: r.Cost}
	for _, f := range r.Fallbacks {
		rep.Fallbacks = append(rep.Fallbacks, node.ModelFallback(f))
	}
	return rep
}
