// Package tool is the tool node: it calls a tool of a registered MCP
// connector under the node's retry policy.
package tool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/retry"
	"github.com/wetel/wetel/tmpl"
)

func init() {
	node.Register(&node.Spec{
		Type:    "tool",
		Summary: "Invokes a tool exposed by a registered MCP connector with templated arguments.",
		Description: "argsTemplate is a JSON object whose strings are templates; a string that is exactly one {{path}} " +
			"keeps the value's own JSON type. The arguments are checked against the tool's input schema as listed " +
			"when the connector was registered, so MCP schema drift fails the node as INVALID_DATA before the call is " +
			"sent. outputVar holds the tool result's structured content, else its text. A tool that reports an error " +
			"(isError) fails the node as UPSTREAM_ERROR; a connection failure, a timeout (timeoutMs, default 10 s) or " +
			"arguments that do not render fail it too. Without a retry policy a call that failed while connecting is " +
			"retried up to 3 attempts.",
		Routing:      node.RouteAll,
		Mockable:     true,
		MockOutput:   "outputVar",
		FailureEdges: true,
		Retry:        true,
		Fields: []node.Field{
			{Name: "connectorId", Kind: node.KindInteger, Required: true, Min: node.Float(1), Description: "The MCP connector's id."},
			{Name: "toolName", Kind: node.KindString, Required: true, MinLength: 1, MaxLength: 256, Description: "The tool to call."},
			{Name: "argsTemplate", Kind: node.KindString, Format: node.FormatJSONTemplate, MaxLength: tmpl.MaxSourceBytes, Description: "The arguments, a JSON object whose strings are templates."},
			callout.OutputVarField,
			callout.TimeoutField,
		},
		Examples: node.Examples(`{"toolName": "get_order_status", "connectorId": 12, "outputVar": "order_result", "argsTemplate": "{\"orderQuery\": \"{{userMessage}}\"}"}`),
		Check:    check,
		Runs:     node.OnServer | node.Offline,
		Build:    build,
	})
}

// check refuses an argsTemplate that is JSON but not an object.
func check(cfg map[string]any) []node.FieldError {
	if s, ok := cfg["argsTemplate"].(string); ok {
		var v any
		if json.Unmarshal([]byte(s), &v) == nil {
			if _, isObject := v.(map[string]any); !isObject {
				return []node.FieldError{{Path: "argsTemplate", Rule: "must be a JSON object: a tool's arguments are named"}}
			}
		}
	}
	return nil
}

type config struct {
	ConnectorID  int64           `json:"connectorId"`
	ToolName     string          `json:"toolName"`
	ArgsTemplate string          `json:"argsTemplate"`
	OutputVar    string          `json:"outputVar"`
	TimeoutMs    int             `json:"timeoutMs"`
	Retry        json.RawMessage `json:"retry"`
}

type executor struct {
	cfg    config
	args   *tmpl.JSONTemplate // nil: no arguments
	policy retry.Policy
}

func build(b node.BuildInput) (node.Executor, error) {
	e := &executor{}
	if err := b.Decode(&e.cfg); err != nil {
		return nil, err
	}
	var err error
	if e.cfg.ArgsTemplate != "" {
		if e.args, err = tmpl.ParseJSON(e.cfg.ArgsTemplate); err != nil {
			return nil, fmt.Errorf("argsTemplate: %w", err)
		}
	}
	if e.policy, err = retry.Decode(b.Type, e.cfg.Retry); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *executor) Execute(ctx context.Context, x *node.Exec) (node.Outcome, error) {
	tools, ok := callout.ToolsKey.Get(x.Services)
	if !ok {
		return node.Outcome{}, node.Unavailable(x.NodeType, x.NodeID, "no MCP connectors are registered here; pass --workspace FILE to wetel run or wetel chat --graph")
	}
	label := fmt.Sprintf("tool node %q", x.NodeID)
	args, err := e.render(x.Vars)
	if err != nil {
		return node.Outcome{}, callout.RedactError(err, label, nil)
	}
	var value any
	err = callout.Retry(ctx, x, e.policy, retry.Call{}, callout.CallTimeout(e.cfg.TimeoutMs, 0), label, nil,
		func(actx context.Context, _ int) error {
			res, err := tools.CallTool(actx, e.cfg.ConnectorID, e.cfg.ToolName, args)
			if err == nil {
				value = res.Value
			}
			return err
		})
	if err != nil {
		return node.Outcome{}, err
	}
	if e.cfg.OutputVar != "" {
		x.Vars[e.cfg.OutputVar] = value
	}
	return node.Outcome{}, nil
}

// render builds the arguments. Seed: the node fails when "argsTemplate is
// malformed".
func (e *executor) render(vars map[string]any) (map[string]any, error) {
	if e.args == nil {
		return map[string]any{}, nil
	}
	v, err := e.args.Render(vars)
	if err != nil {
		return nil, &failure.Error{Code: failure.InvalidData, Message: "rendering argsTemplate", Err: err}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &failure.Error{Code: failure.InvalidData, Message: fmt.Sprintf("argsTemplate rendered %T, not a JSON object", v)}
	}
	return m, nil
}
