package main

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/wetel/wetel/secrets"
	"github.com/wetel/wetel/workspace"
)

type shownKV struct{ Name, Value string }

// sameSecrets compares declared values with what the server shows back,
// masked: equal names and equal masks. A changed secret of the same length
// and ending is not seen; re-apply after removing the entry to force it.
func sameSecrets(want map[string]string, shown []shownKV) bool {
	if len(want) != len(shown) {
		return false
	}
	for _, kv := range shown {
		v, ok := want[kv.Name]
		if !ok || secrets.MaskHeaders(map[string]string{kv.Name: v})[kv.Name] != kv.Value {
			return false
		}
	}
	return true
}

func kvList(m map[string]string) []map[string]any {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]map[string]any, len(names))
	for i, k := range names {
		out[i] = map[string]any{"name": k, "value": m[k]}
	}
	return out
}

func (a *applier) applyActions(ctx context.Context, actions []workspace.CustomAction) error {
	if len(actions) == 0 {
		return nil
	}
	var have struct {
		CustomActions []struct {
			ID                int
			Name, Method, URL string
			TimeoutMs         int
			Headers           []shownKV
		}
	}
	if err := a.c.Do(ctx, `{ customActions { id name method url timeoutMs headers { name value } } }`, nil, &have); err != nil {
		return err
	}
	for i, ca := range actions {
		method := strings.ToUpper(ca.Method)
		if method == "" {
			method = "POST"
		}
		unchanged, exists := false, false
		for _, h := range have.CustomActions {
			if h.ID == ca.ID {
				exists = true
				unchanged = h.Name == ca.Name && h.Method == method && h.URL == ca.URL && h.TimeoutMs == ca.TimeoutMs && sameSecrets(ca.Headers, h.Headers)
			}
		}
		if unchanged {
			continue
		}
		err := a.c.Do(ctx, `mutation($i: CustomActionInput!) { createCustomAction(input: $i) { id } }`, map[string]any{"i": map[string]any{
			"id": ca.ID, "name": ca.Name, "method": method, "url": ca.URL, "timeoutMs": ca.TimeoutMs, "headers": kvList(ca.Headers)}}, nil)
		if err != nil {
			return fmt.Errorf("customActions[%d] (%s): %w", i, ca.Name, err)
		}
		a.say("custom action %d %q: %s", ca.ID, ca.Name, map[bool]string{true: "updated", false: "created"}[exists])
	}
	return nil
}

func (a *applier) applyConnectors(ctx context.Context, conns []workspace.McpConnector) error {
	if len(conns) == 0 {
		return nil
	}
	var have struct {
		McpConnectors []struct {
			ID                   int
			Name, Transport, URL string
			Command              []string
			Credentials          []shownKV
		}
	}
	if err := a.c.Do(ctx, `{ mcpConnectors { id name transport url command credentials { name value } } }`, nil, &have); err != nil {
		return err
	}
	for i, mc := range conns {
		unchanged, exists := false, false
		for _, h := range have.McpConnectors {
			if h.ID == mc.ID {
				exists = true
				cmd := mc.Command
				if cmd == nil {
					cmd = []string{}
				}
				unchanged = h.Name == mc.Name && h.Transport == mc.Transport && h.URL == mc.URL &&
					reflect.DeepEqual(h.Command, cmd) && sameSecrets(mc.Credentials, h.Credentials)
			}
		}
		if unchanged {
			continue
		}
		in := map[string]any{"id": mc.ID, "name": mc.Name, "transport": mc.Transport, "credentials": kvList(mc.Credentials)}
		if len(mc.Command) > 0 {
			in["command"] = mc.Command
		}
		if mc.URL != "" {
			in["url"] = mc.URL
		}
		if err := a.c.Do(ctx, `mutation($i: McpConnectorInput!) { registerMcpConnector(input: $i) { id } }`, map[string]any{"i": in}, nil); err != nil {
			return fmt.Errorf("mcpConnectors[%d] (%s): %w", i, mc.Name, err)
		}
		a.say("mcp connector %d %q: %s", mc.ID, mc.Name, map[bool]string{true: "updated", false: "registered"}[exists])
	}
	return nil
}
