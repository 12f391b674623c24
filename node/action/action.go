// Package action is the action node: it calls a registered Custom Action (a
// plain REST endpoint) through the guarded HTTP client, under the node's
// retry policy.
package action

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/retry"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "action",
		Summary: "Invokes a registered Custom Action (a REST endpoint) with a templated body.",
		Description: "The Custom Action named by customActionId gives the method, the URL (a template: each {{x}} is " +
			"escaped for where it sits) and the headers, which may hold credentials and are never traced. " +
			"bodyTemplate (or argsTemplate) is a JSON document whose strings are templates, sent as the JSON body. " +
			"outputVar holds {status, headers, data}: headers with lower-cased names and their first value (Set-Cookie " +
			"left out), data the parsed JSON body or the text. fetchAsBase64Var stores the body as base64 instead " +
			"(at most 10 MB). Each attempt is bounded by timeoutMs, else the action's own timeout, else 10 s. A non-2xx " +
			"answer, a timeout, a refused URL, an answer that says it is JSON and is not, or an argsTemplate that does " +
			"not render fails the node. Without a retry policy a failed call is tried up to 3 times with no wait, " +
			"resending only what is safe to resend. An unknown customActionId fails the node as UNKNOWN.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Retry:        true,
		Fields: []node.Field{
			{Name: "customActionId", Kind: node.KindInteger, Required: true, Min: node.Float(1), Description: "The Custom Action's id."},
			{Name: "bodyTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "The JSON body, its strings templated."},
			{Name: "argsTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "Same as bodyTemplate, with the tool node's name."},
			callout.OutputVarField,
			callout.TimeoutField,
			{Name: "fetchAsBase64Var", Kind: node.KindString, Format: node.FormatVariable, MaxLength: 128, Description: "Store the response body in this variable as base64 (at most 10 MB)."},
		},
		Examples: node.Examples(`{"customActionId": 42, "outputVar": "orderLookup", "bodyTemplate": "{\"customerRef\": \"{{clientExternalId}}\"}"}`),
		Rules:    rules,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

type config struct {
	CustomActionID   int64           `json:"customActionId"`
	BodyTemplate     string          `json:"bodyTemplate"`
	ArgsTemplate     string          `json:"argsTemplate"`
	OutputVar        string          `json:"outputVar"`
	TimeoutMs        int             `json:"timeoutMs"`
	FetchAsBase64Var string          `json:"fetchAsBase64Var"`
	Retry            json.RawMessage `json:"retry"`
}

type executor struct {
	cfg    config
	body   *tmpl.JSONTemplate // nil: no body
	policy retry.Policy
	// urls caches the parsed URL templates of the actions this node called,
	// by source: an action's URL changes only when it is edited.
	urls sync.Map
}

func build(b node.BuildInput) (node.Executor, error) {
	e := &executor{}
	if err := b.Decode(&e.cfg); err != nil {
		return nil, err
	}
	src := e.cfg.BodyTemplate
	if src == "" {
		src = e.cfg.ArgsTemplate
	}
	if src != "" {
		t, err := tmpl.ParseJSON(src)
		if err != nil {
			return nil, fmt.Errorf("bodyTemplate: %w", err)
		}
		e.body = t
	}
	p, err := retry.Decode(b.Type, e.cfg.Retry)
	if err != nil {
		return nil, err
	}
	e.policy = p
	return e, nil
}

func (e *executor) Execute(ctx context.Context, x *node.Exec) (node.Outcome, error) {
	actions, ok := callout.ActionsKey.Get(x.Services)
	if !ok {
		return node.Outcome{}, node.Unavailable(x.NodeType, x.NodeID, "no custom actions are registered here; pass --workspace FILE to wetel run or wetel chat --graph")
	}
	a, err := actions.CustomAction(ctx, e.cfg.CustomActionID)
	if err != nil {
		// A graph naming an action the workspace does not have is a
		// configuration error, not a problem of the service: UNKNOWN.
		msg := fmt.Sprintf("custom action %d is not registered in this workspace", e.cfg.CustomActionID)
		if !errors.Is(err, callout.ErrNoSuchAction) {
			msg = fmt.Sprintf("looking up custom action %d: %v", e.cfg.CustomActionID, err)
		}
		return node.Outcome{}, callout.RedactError(&failure.Error{Code: failure.Unknown, Message: msg}, fmt.Sprintf("action node %q", x.NodeID), nil)
	}
	label := fmt.Sprintf("action node %q: %s", x.NodeID, a.Label())
	header := make(http.Header, len(a.Headers))
	for k, v := range a.Headers {
		header.Set(k, v)
	}
	secrets := callout.CallSecrets(header, a.URL)
	req, err := e.request(a, header, x.Vars)
	if err != nil {
		return node.Outcome{}, callout.RedactError(err, label, secrets)
	}
	ans, err := callout.CallHTTP(ctx, x, callout.HTTPCall{
		Label: label, Request: req, Policy: e.policy, Secrets: append(secrets, callout.CallSecrets(nil, req.URL)...),
		Timeout: callout.CallTimeout(e.cfg.TimeoutMs, a.TimeoutMs), Raw: e.cfg.FetchAsBase64Var != "",
	})
	if err != nil {
		return node.Outcome{}, err
	}
	if e.cfg.FetchAsBase64Var != "" {
		x.Vars[e.cfg.FetchAsBase64Var] = base64.StdEncoding.EncodeToString(ans.Body)
	}
	if e.cfg.OutputVar != "" {
		x.Vars[e.cfg.OutputVar] = ans.Value
	}
	return node.Outcome{}, nil
}

// request renders the action's URL and the node's body. Seed: the node
// fails when "argsTemplate is malformed".
func (e *executor) request(a callout.CustomAction, header http.Header, vars map[string]any) (callout.HTTPRequest, error) {
	u, err := e.urlTemplate(a.URL)
	if err != nil {
		return callout.HTTPRequest{}, &failure.Error{Code: failure.Unknown, Message: "the action's url", Err: err}
	}
	rawURL, err := u.Render(vars)
	if err != nil {
		return callout.HTTPRequest{}, err
	}
	req := callout.HTTPRequest{Method: strings.ToUpper(a.Method), URL: rawURL, Header: header}
	if req.Method == "" {
		req.Method = http.MethodPost
	}
	if e.body != nil {
		if req.Body, err = e.body.RenderBytes(vars); err != nil {
			return callout.HTTPRequest{}, &failure.Error{Code: failure.InvalidData, Message: "rendering bodyTemplate", Err: err}
		}
	}
	return req, nil
}

func (e *executor) urlTemplate(src string) (*callout.URLTemplate, error) {
	if t, ok := e.urls.Load(src); ok {
		return t.(*callout.URLTemplate), nil
	}
	t, err := callout.ParseURLTemplate(src)
	if err != nil {
		return nil, err
	}
	e.urls.Store(src, t)
	return t, nil
}
