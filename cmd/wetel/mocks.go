package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wetel/wetel/graph"
)

// mockOverride replaces a node's mock for one invocation, so one graph file
// can be run down each of its branches: --mock-response classify='"general"'.
type mockOverride struct {
	nodeID string
	field  string // mockResponse or mockError
	value  json.RawMessage
}

func parseMockResponse(arg string) (mockOverride, error) {
	id, val, ok := strings.Cut(arg, "=")
	if !ok || id == "" {
		return mockOverride{}, fmt.Errorf("--mock-response %q: want NODE=JSON", arg)
	}
	if !json.Valid([]byte(val)) {
		return mockOverride{}, fmt.Errorf("--mock-response %q: %q is not JSON (quote a string: '\"text\"')", arg, val)
	}
	return mockOverride{nodeID: id, field: "mockResponse", value: json.RawMessage(val)}, nil
}

func parseMockError(arg string) (mockOverride, error) {
	id, rest, ok := strings.Cut(arg, "=")
	if !ok || id == "" || rest == "" {
		return mockOverride{}, fmt.Errorf("--mock-error %q: want NODE=CODE[:message]", arg)
	}
	code, msg, _ := strings.Cut(rest, ":")
	b, _ := json.Marshal(map[string]string{"code": code, "message": msg})
	return mockOverride{nodeID: id, field: "mockError", value: b}, nil
}

// applyMocks writes the overrides into the nodes' configs; the publish checks
// then hold them to the same rules as mocks written in the file.
func applyMocks(g *graph.Graph, overrides []mockOverride) error {
	for _, o := range overrides {
		n, ok := g.NodeByID(o.nodeID)
		if !ok {
			return fmt.Errorf("mock for node %q: no such node", o.nodeID)
		}
		var cfg map[string]json.RawMessage
		if err := json.Unmarshal(n.Config, &cfg); err != nil || cfg == nil {
			cfg = map[string]json.RawMessage{}
		}
		delete(cfg, "mockResponse")
		delete(cfg, "mockError")
		cfg[o.field] = o.value
		b, err := json.Marshal(cfg)
		if err != nil {
			return err
		}
		n.Config = b
	}
	return nil
}

// mockFlag collects --mock-response and --mock-error in command-line order.
type mockFlag struct {
	list  *[]mockOverride
	parse func(string) (mockOverride, error)
}

func (f mockFlag) String() string { return "" }
func (f mockFlag) Set(v string) error {
	o, err := f.parse(v)
	if err != nil {
		return err
	}
	*f.list = append(*f.list, o)
	return nil
}
