// Package webhook is the webhook node: an inline HTTP request, no
// registration, through the guarded HTTP client; with async: true it is
// handed to the run's outbox and sent in the background.
package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/retry"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "webhook",
		Summary: "Calls an arbitrary HTTP endpoint specified inline (url, method, headers, body template).",
		Description: "url is a template: each {{x}} is escaped for where it sits (path, query or host), so a value cannot " +
			"change the host or add a parameter; {{{x}}} inserts a value unescaped. bodyTemplate is a JSON document " +
			"whose strings are templates, so user text can never break or extend the JSON. outputVar holds {status, " +
			"headers, data}, data being the parsed JSON body or the text. A non-2xx answer, a timeout or a refused URL " +
			"(for example one that resolves to a private address) fails the node. With async: true the request is " +
			"queued and sent in the background: the node completes at once, writes nothing, and only a failure before " +
			"the request is sent (a URL that does not render or is refused) takes the failure edge. A webhook never " +
			"retries unless it has a retry policy.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Retry:        true,
		Fields: []node.Field{
			{Name: "url", Kind: node.KindString, Format: node.FormatTemplate, Required: true, MaxLength: 8192, Description: "The URL, as a template."},
			{Name: "method", Kind: node.KindString, Enum: []string{"GET", "POST", "PUT", "PATCH", "DELETE"}, Default: "POST", Description: "The HTTP method."},
			callout.HeadersField,
			{Name: "bodyTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "The JSON body, its strings templated."},
			callout.TimeoutField,
			{Name: "async", Kind: node.KindBoolean, Default: false, Description: "Send without waiting for the answer."},
			callout.OutputVarField,
		},
		Examples: node.Examples(`{"url": "https://hooks.example.com/orders", "method": "POST", "bodyTemplate": "{\"text\": \"{{userMessage}}\"}", "outputVar": "hookResult"}`),
		Check:    check,
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

// check refuses a url that no run could render safely.
func check(cfg map[string]any) []node.FieldError {
	if s, ok := cfg["url"].(string); ok {
		if _, err := callout.ParseURLTemplate(s); err != nil {
			return []node.FieldError{{Path: "url", Rule: err.Error()}}
		}
	}
	return nil
}

type config struct {
	URL          string            `json:"url"`
	Method       string            `json:"method"`
	Headers      map[string]string `json:"headers"`
	BodyTemplate string            `json:"bodyTemplate"`
	TimeoutMs    int               `json:"timeoutMs"`
	Async        bool              `json:"async"`
	OutputVar    string            `json:"outputVar"`
	Retry        json.RawMessage   `json:"retry"`
}

type executor struct {
	cfg    config
	url    *callout.URLTemplate
	body   *tmpl.JSONTemplate
	header http.Header
	policy retry.Policy
}

func build(b node.BuildInput) (node.Executor, error) {
	e := &executor{}
	if err := b.Decode(&e.cfg); err != nil {
		return nil, err
	}
	var err error
	if e.url, err = callout.ParseURLTemplate(e.cfg.URL); err != nil {
		return nil, fmt.Errorf("url: %w", err)
	}
	if e.cfg.BodyTemplate != "" {
		if e.body, err = tmpl.ParseJSON(e.cfg.BodyTemplate); err != nil {
			return nil, fmt.Errorf("bodyTemplate: %w", err)
		}
	}
	if e.cfg.Method == "" {
		e.cfg.Method = http.MethodPost
	}
	e.header = make(http.Header, len(e.cfg.Headers))
	for k, v := range e.cfg.Headers {
		e.header.Set(k, v)
	}
	if e.policy, err = retry.Decode(b.Type, e.cfg.Retry); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *executor) Execute(ctx context.Context, x *node.Exec) (node.Outcome, error) {
	label := fmt.Sprintf("webhook node %q", x.NodeID)
	client, _ := callout.HTTPKey.Get(x.Services)
	if client == nil {
		return node.Outcome{}, node.Unavailable(x.NodeType, x.NodeID, "outbound HTTP calls are not available here; run it with wetel run, or in mock mode with a mockResponse")
	}
	req, err := e.request(x.Vars)
	secrets := callout.CallSecrets(e.header, e.cfg.URL)
	if err != nil {
		return node.Outcome{}, callout.RedactError(err, label, secrets)
	}
	secrets = append(secrets, callout.CallSecrets(nil, req.URL)...)
	if e.cfg.Async {
		return node.Outcome{}, e.enqueue(ctx, x, client, req, label, secrets)
	}
	ans, err := callout.CallHTTP(ctx, x, callout.HTTPCall{Label: label, Request: req, Policy: e.policy,
		Timeout: callout.CallTimeout(e.cfg.TimeoutMs, 0), Secrets: secrets})
	if err != nil {
		return node.Outcome{}, err
	}
	if e.cfg.OutputVar != "" {
		x.Vars[e.cfg.OutputVar] = ans.Value
	}
	return node.Outcome{}, nil
}

func (e *executor) request(vars map[string]any) (callout.HTTPRequest, error) {
	rawURL, err := e.url.Render(vars)
	if err != nil {
		return callout.HTTPRequest{}, err
	}
	req := callout.HTTPRequest{Method: e.cfg.Method, URL: rawURL, Header: e.header}
	if e.body != nil {
		if req.Body, err = e.body.RenderBytes(vars); err != nil {
			return callout.HTTPRequest{}, &failure.Error{Code: failure.InvalidData, Message: "rendering bodyTemplate", Err: err}
		}
	}
	return req, nil
}

// enqueue checks the URL and hands the request to the outbox. Seed: "With
// async: true, only a failure before the request is sent" fails the node,
// so a URL the guard refuses is refused here, before queueing.
func (e *executor) enqueue(ctx context.Context, x *node.Exec, client *outbound.Client, req callout.HTTPRequest, label string, secrets []string) error {
	outbox, ok := callout.OutboxKey.Get(x.Services)
	if !ok {
		return node.Unavailable(x.NodeType, x.NodeID, "async webhooks need an outbox, and none is configured here")
	}
	if err := client.CheckContext(ctx, req.URL); err != nil {
		return callout.RedactError(err, label, secrets)
	}
	headers := make(map[string]string, len(req.Header))
	for k, vs := range req.Header {
		if len(vs) > 0 {
			headers[k] = vs[0]
		}
	}
	r := callout.OutboundRequest{RunID: x.RunID, NodeID: x.NodeID, Method: req.Method, URL: req.URL, Headers: headers, Body: req.Body,
		Timeout: callout.CallTimeout(e.cfg.TimeoutMs, 0)}
	if r.Body != nil {
		if _, set := headers["Content-Type"]; !set {
			headers["Content-Type"] = "application/json"
		}
	}
	if err := outbox.Enqueue(ctx, r); err != nil {
		return callout.RedactError(&failure.Error{Code: failure.Unknown, Message: "queueing the request", Err: err}, label, secrets)
	}
	return nil
}
