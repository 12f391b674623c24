package storetest

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

func testWorkspaces(t *testing.T, e *env) {
	ctx := t.Context()
	before := time.Now()
	a, err := e.shared.CreateWorkspace(ctx, "alpha")
	must(t, err)
	b, err := e.shared.CreateWorkspace(ctx, "beta")
	must(t, err)
	if a.ID <= 0 || b.ID <= a.ID {
		t.Errorf("workspace ids %d then %d: want positive and increasing", a.ID, b.ID)
	}
	if a.CreatedAt.Before(before.Add(-time.Second)) || a.CreatedAt.After(time.Now().Add(time.Second)) {
		t.Errorf("CreatedAt %v is not now", a.CreatedAt)
	}
	got, err := e.shared.Workspace(ctx, b.ID)
	must(t, err)
	if got.ID != b.ID || got.Name != "beta" || !sameTime(b.CreatedAt, got.CreatedAt) {
		t.Errorf("Workspace = %+v, want %+v", got, b)
	}
	_, err = e.shared.Workspace(ctx, b.ID+1_000_000)
	wantErr(t, "unknown workspace", err, store.ErrNotFound)
}

func testWorkflowRoundTrip(t *testing.T, e *env) {
	ctx := t.Context()
	ws, err := e.shared.CreateWorkspace(ctx, "w")
	must(t, err)
	at := now().Add(-time.Hour)
	in := store.Workflow{WorkspaceID: ws.ID, Name: "Orders", Description: "takes orders",
		Draft: json.RawMessage(`{"b": 1,  "a": [true]}`), FailureResponse: "Sorry.",
		NotifyOnFailure: "OWNERS", CreatedAt: at, UpdatedAt: at.Add(time.Minute)}
	w, err := e.shared.CreateWorkflow(ctx, in)
	must(t, err)
	if w.ID <= 0 || w.PublishedVersion != 0 {
		t.Fatalf("CreateWorkflow = %+v: want an id and no published version", w)
	}
	got, err := e.shared.Workflow(ctx, ws.ID, w.ID)
	must(t, err)
	if got.ID != w.ID || got.WorkspaceID != ws.ID || got.Name != in.Name ||
		got.Description != in.Description || !bytes.Equal(got.Draft, in.Draft) ||
		got.FailureResponse != in.FailureResponse || got.NotifyOnFailure != in.NotifyOnFailure ||
		got.PublishedVersion != 0 || !sameTime(in.CreatedAt, got.CreatedAt) ||
		!sameTime(in.UpdatedAt, got.UpdatedAt) {
		t.Errorf("Workflow = %s\nwant       %s", str(got), str(in))
	}
}

func testSaveDraft(t *testing.T, e *env) {
	ctx := t.Context()
	tn := newTenant(t, e.shared)
	before, err := e.shared.Workflow(ctx, tn.ws, tn.workflow)
	must(t, err)
	draft := json.RawMessage(`{"nodes": [ {"id": "x"} ]}`)
	must(t, e.shared.SaveDraft(ctx, tn.ws, tn.workflow, draft))
	got, err := e.shared.Workflow(ctx, tn.ws, tn.workflow)
	must(t, err)
	if !bytes.Equal(got.Draft, draft) {
		t.Errorf("draft = %s, want %s", got.Draft, draft)
	}
	if got.UpdatedAt.Before(before.UpdatedAt) {
		t.Errorf("UpdatedAt went back from %v to %v", before.UpdatedAt, got.UpdatedAt)
	}
	if got.PublishedVersion != before.PublishedVersion {
		t.Errorf("saving a draft changed the published version to %d", got.PublishedVersion)
	}
}

func testPublish(t *testing.T, e *env) {
	ctx := t.Context()
	ws, err := e.shared.CreateWorkspace(ctx, "w")
	must(t, err)
	wf, err := e.shared.CreateWorkflow(ctx, store.Workflow{WorkspaceID: ws.ID, Name: "f"})
	must(t, err)
	g1 := json.RawMessage(`{"nodes": [{"id": "a", "type": "say"}], "edges": []}`)
	// The same document, other whitespace and key order.
	g1again := json.RawMessage("{\"edges\":[],\n \"nodes\":[{\"type\":\"say\",\"id\":\"a\"}]}")
	g2 := json.RawMessage(`{"nodes": [{"id": "b", "type": "say"}], "edges": []}`)

	steps := []struct {
		graph      json.RawMessage
		by         string
		wantNumber int
		wantGraph  json.RawMessage
	}{
		{g1, "ann", 1, g1},
		{g1again, "bob", 1, g1}, // unchanged: the current version comes back
		{g2, "cat", 2, g2},
		{g2, "dan", 2, g2},
		{g1, "eve", 3, g1}, // going back is a new version too
	}
	for i, st := range steps {
		v, err := e.shared.Publish(ctx, ws.ID, wf.ID, st.graph, st.by)
		must(t, err)
		if v.Number != st.wantNumber || !bytes.Equal(v.Graph, st.wantGraph) ||
			v.WorkflowID != wf.ID || v.WorkspaceID != ws.ID {
			t.Errorf("step %d: Publish = %s, want number %d graph %s", i, str(v), st.wantNumber, st.wantGraph)
		}
		got, err := e.shared.Workflow(ctx, ws.ID, wf.ID)
		must(t, err)
		if got.PublishedVersion != st.wantNumber {
			t.Errorf("step %d: PublishedVersion = %d, want %d", i, got.PublishedVersion, st.wantNumber)
		}
	}
	for n, want := range map[int]struct {
		graph json.RawMessage
		by    string
	}{1: {g1, "ann"}, 2: {g2, "cat"}, 3: {g1, "eve"}} {
		v, err := e.shared.WorkflowVersion(ctx, ws.ID, wf.ID, n)
		must(t, err)
		if !bytes.Equal(v.Graph, want.graph) || v.PublishedBy != want.by || v.Number != n || v.PublishedAt.IsZero() {
			t.Errorf("version %d = %s, want graph %s by %s", n, str(v), want.graph, want.by)
		}
	}
	_, err = e.shared.WorkflowVersion(ctx, ws.ID, wf.ID, 4)
	wantErr(t, "version never published", err, store.ErrNotFound)
	if _, err := e.shared.Publish(ctx, ws.ID, wf.ID, json.RawMessage(`{"nodes":`), "x"); err == nil {
		t.Error("publishing invalid JSON succeeded")
	}
}

func testAgentRoundTrip(t *testing.T, e *env) {
	ctx := t.Context()
	tn := newTenant(t, e.shared)
	at := now().Add(-time.Minute)
	for _, in := range []store.Agent{
		{WorkspaceID: tn.ws, Name: "Ada", Persona: "calm", DefaultModel: "m1", WorkflowID: tn.workflow, CreatedAt: at},
		{WorkspaceID: tn.ws, Name: "Bo", CreatedAt: at}, // no workflow attached
	} {
		a, err := e.shared.CreateAgent(ctx, in)
		must(t, err)
		got, err := e.shared.Agent(ctx, tn.ws, a.ID)
		must(t, err)
		in.ID = a.ID
		if got.ID != in.ID || got.WorkspaceID != in.WorkspaceID || got.Name != in.Name ||
			got.Persona != in.Persona || got.DefaultModel != in.DefaultModel ||
			got.WorkflowID != in.WorkflowID || !sameTime(in.CreatedAt, got.CreatedAt) {
			t.Errorf("Agent = %s, want %s", str(got), str(in))
		}
	}
}

func testSessionRoundTrip(t *testing.T, e *env) {
	ctx := t.Context()
	tn := newTenant(t, e.shared)
	at := now().Add(-time.Minute)
	in := store.Session{WorkspaceID: tn.ws, AgentID: tn.agent, Identity: "u@example.com",
		ClientExternalID: "ext-42", Channel: "whatsapp", CreatedAt: at}
	ss, err := e.shared.CreateSession(ctx, in)
	must(t, err)
	if ss.ID <= 0 || ss.Status != store.SessionOpen || ss.EndedAt != nil {
		t.Fatalf("CreateSession = %s: want an id, OPEN, not ended", str(ss))
	}
	got, err := e.shared.Session(ctx, tn.ws, ss.ID)
	must(t, err)
	if got.ID != ss.ID || got.WorkspaceID != tn.ws || got.AgentID != tn.agent ||
		got.Identity != in.Identity || got.Status != store.SessionOpen ||
		got.ClientExternalID != in.ClientExternalID || got.Channel != in.Channel ||
		!sameTime(at, got.CreatedAt) || got.EndedAt != nil {
		t.Errorf("Session = %s, want %s", str(got), str(in))
	}
}

// testCreateFirstWorkspace: servers starting at once on an empty database
// race to set up the first start; exactly one creates the first workspace.
func testCreateFirstWorkspace(t *testing.T, e *env) {
	s := e.fresh(t)
	ctx := t.Context()
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := s.CreateFirstWorkspace(ctx, "Demo")
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				created++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if created != 1 {
		t.Fatalf("%d of 8 racing first starts created a workspace, want 1", created)
	}
	if _, ok, err := s.CreateFirstWorkspace(ctx, "Again"); err != nil || ok {
		t.Errorf("a later first start: created %v, %v", ok, err)
	}
	must(t, s.Ping(ctx))
}

// testAgreeSetting: the first value stored under a name stays; a later one
// reads it back instead of replacing it.
func testAgreeSetting(t *testing.T, e *env) {
	s := e.fresh(t)
	ctx := t.Context()
	got, err := s.AgreeSetting(ctx, "key-check", "first")
	must(t, err)
	if got != "first" {
		t.Fatalf("the first setting reads %q", got)
	}
	if got, err := s.AgreeSetting(ctx, "key-check", "second"); err != nil || got != "first" {
		t.Errorf("a second setting reads %q, %v; want the first kept", got, err)
	}
	if got, err := s.AgreeSetting(ctx, "other", "x"); err != nil || got != "x" {
		t.Errorf("another name: %q, %v", got, err)
	}
}
