package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"

	"github.com/wetel/wetel/client"
	"github.com/wetel/wetel/internal/canon"
	"github.com/wetel/wetel/internal/jsonpos"
	"github.com/wetel/wetel/workspace"
)

// cmdApply declares a workspace on a server from one file: workflows (by
// name, their graphs read from files next to it) and agents (by name).
// Applying the same file twice changes nothing the second time.
func cmdApply(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("apply", stderr)
	serverURL := fs.String("server", envOr("WETEL_SERVER", "http://127.0.0.1:8080"), "the server (WETEL_SERVER)")
	// The key's default is read after parsing, so -h never prints it.
	key := fs.String("key", "", "an API key of the workspace (default: WETEL_API_KEY)")
	pos, code, ok := parseCommand(fs, args, stdout)
	if !ok {
		return code
	}
	if *key == "" {
		*key = os.Getenv("WETEL_API_KEY")
	}
	if len(pos) != 1 || *key == "" {
		fmt.Fprintln(stderr, usageLine("apply"))
		return 2
	}
	ws, err := workspace.Load(pos[0], os.LookupEnv)
	if err != nil {
		fmt.Fprintf(stderr, "wetel apply: %v\n", err)
		return 1
	}
	a := &applier{c: client.New(*serverURL, *key), dir: filepath.Dir(pos[0]), out: stdout}
	if err := a.apply(ctx, ws); err != nil {
		fmt.Fprintf(stderr, "wetel apply: %v\n", err)
		return 1
	}
	if a.changes == 0 {
		fmt.Fprintln(stdout, "no changes")
	}
	return 0
}

type applier struct {
	c       *client.Client
	dir     string
	out     io.Writer
	changes int
}

func (a *applier) say(format string, args ...any) {
	a.changes++
	fmt.Fprintf(a.out, format+"\n", args...)
}

type remoteWorkflow struct {
	ID               int64
	Name             string
	Draft            json.RawMessage
	PublishedVersion int
}

func (a *applier) apply(ctx context.Context, ws *workspace.File) error {
	if len(ws.KnowledgeBases) > 0 {
		return fmt.Errorf("knowledgeBases cannot be applied to a server yet; remove them from the file")
	}
	if err := a.applyActions(ctx, ws.CustomActions); err != nil {
		return err
	}
	if err := a.applyConnectors(ctx, ws.McpConnectors); err != nil {
		return err
	}
	if err := a.applyModels(ctx, ws); err != nil {
		return err
	}
	var have struct{ Workflows []remoteWorkflow }
	if err := a.c.Do(ctx, `{ workflows { id name draft publishedVersion } }`, nil, &have); err != nil {
		return err
	}
	byName := map[string]remoteWorkflow{}
	for _, w := range have.Workflows {
		byName[w.Name] = w
	}
	ids := map[string]int64{}
	for i, w := range ws.Workflows {
		id, err := a.applyWorkflow(ctx, w, byName)
		if err != nil {
			return fmt.Errorf("workflows[%d] (%s): %w", i, w.Name, err)
		}
		ids[w.Name] = id
	}
	for i, ag := range ws.Agents {
		if err := a.applyAgent(ctx, ag, ids, byName); err != nil {
			return fmt.Errorf("agents[%d] (%s): %w", i, ag.Name, err)
		}
	}
	return nil
}

func (a *applier) applyWorkflow(ctx context.Context, w workspace.Workflow, have map[string]remoteWorkflow) (int64, error) {
	path := w.File
	if !filepath.IsAbs(path) {
		path = filepath.Join(a.dir, path)
	}
	graph, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if err := jsonpos.Check(graph); err != nil {
		return 0, fmt.Errorf("%s is not valid JSON: %w", w.File, err)
	}
	cur, exists := have[w.Name]
	switch {
	case !exists:
		var out struct{ CreateWorkflow remoteWorkflow }
		if err := a.c.Do(ctx, `mutation($n: String!, $g: JSON!) { createWorkflow(input: {name: $n, graph: $g}) { id name draft publishedVersion } }`,
			map[string]any{"n": w.Name, "g": json.RawMessage(graph)}, &out); err != nil {
			return 0, err
		}
		cur = out.CreateWorkflow
		a.say("workflow %q: created (id %d)", w.Name, cur.ID)
	case !sameDoc(cur.Draft, graph):
		if err := a.c.Do(ctx, `mutation($id: Int!, $g: JSON!) { updateWorkflow(id: $id, input: {graph: $g}) { id } }`,
			map[string]any{"id": cur.ID, "g": json.RawMessage(graph)}, nil); err != nil {
			return 0, err
		}
		a.say("workflow %q: draft updated", w.Name)
	}
	if w.Publish {
		var out struct{ PublishWorkflow struct{ Number int } }
		if err := a.c.Do(ctx, `mutation($id: Int!) { publishWorkflow(id: $id) { number } }`, map[string]any{"id": cur.ID}, &out); err != nil {
			return 0, err
		}
		if out.PublishWorkflow.Number != cur.PublishedVersion {
			a.say("workflow %q: published version %d", w.Name, out.PublishWorkflow.Number)
		}
	}
	return cur.ID, nil
}

func (a *applier) applyAgent(ctx context.Context, ag workspace.Agent, ids map[string]int64, have map[string]remoteWorkflow) error {
	var wf *int64
	if ag.Workflow != "" {
		id, ok := ids[ag.Workflow]
		if !ok {
			w, exists := have[ag.Workflow]
			if !exists {
				return fmt.Errorf("workflow %q is neither in the file nor on the server", ag.Workflow)
			}
			id = w.ID
		}
		wf = &id
	}
	var list struct {
		Agents []struct {
			ID           int64
			Name         string
			Persona      string
			DefaultModel string
			WorkflowID   *int64
		}
	}
	if err := a.c.Do(ctx, `{ agents { id name persona defaultModel workflowId } }`, nil, &list); err != nil {
		return err
	}
	for _, cur := range list.Agents {
		if cur.Name != ag.Name {
			continue
		}
		if cur.Persona == ag.Persona && cur.DefaultModel == ag.DefaultModel && reflect.DeepEqual(cur.WorkflowID, wf) {
			return nil
		}
		vars := map[string]any{"id": cur.ID, "p": ag.Persona, "m": ag.DefaultModel}
		if wf != nil {
			vars["w"] = *wf
		}
		if err := a.c.Do(ctx, `mutation($id: Int!, $p: String, $m: String, $w: Int) { updateAgent(id: $id, input: {persona: $p, defaultModel: $m, workflowId: $w}) { id } }`, vars, nil); err != nil {
			return err
		}
		a.say("agent %q: updated", ag.Name)
		return nil
	}
	vars := map[string]any{"n": ag.Name, "p": ag.Persona, "m": ag.DefaultModel}
	if wf != nil {
		vars["w"] = *wf
	}
	var out struct{ CreateAgent struct{ ID int64 } }
	if err := a.c.Do(ctx, `mutation($n: String!, $p: String, $m: String, $w: Int) { createAgent(input: {name: $n, persona: $p, defaultModel: $m, workflowId: $w}) { id } }`, vars, &out); err != nil {
		return err
	}
	a.say("agent %q: created (id %d)", ag.Name, out.CreateAgent.ID)
	return nil
}

func sameDoc(a, b []byte) bool {
	eq, err := canon.Equal(a, b)
	return err == nil && eq
}
