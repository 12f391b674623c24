package storetest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/wetel/wetel/store"
)

func ptr[T any](v T) *T { return &v }

// testWorkflowListing lists workflows and their versions and updates
// settings one field at a time.
func testWorkflowListing(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	wf2, err := s.CreateWorkflow(ctx, store.Workflow{WorkspaceID: tn.ws, Name: "second",
		Draft: json.RawMessage(`{"n":2}`), NotifyOnFailure: store.NotifyNone})
	must(t, err)
	list, err := s.Workflows(ctx, tn.ws)
	must(t, err)
	if len(list) != 2 || list[0].ID != tn.workflow || list[1].ID != wf2.ID || list[1].Name != "second" ||
		!bytes.Equal(list[1].Draft, wf2.Draft) || list[0].PublishedVersion != 1 || list[1].WorkspaceID != tn.ws {
		t.Errorf("Workflows = %s", str(list))
	}

	before, err := s.Workflow(ctx, tn.ws, wf2.ID)
	must(t, err)
	got, err := s.UpdateWorkflow(ctx, tn.ws, wf2.ID, store.WorkflowSettings{Description: ptr("now described"),
		NotifyOnFailure: ptr(store.NotifyOwners)})
	must(t, err)
	want := before
	want.Description, want.NotifyOnFailure, want.UpdatedAt = "now described", store.NotifyOwners, got.UpdatedAt
	if str(got) != str(want) || got.UpdatedAt.Before(before.UpdatedAt) {
		t.Errorf("UpdateWorkflow = %s\nwant             %s", str(got), str(want))
	}
	got, err = s.UpdateWorkflow(ctx, tn.ws, wf2.ID, store.WorkflowSettings{Name: ptr("renamed"),
		FailureResponse: ptr("Sorry, try later."), Description: ptr("")})
	must(t, err)
	want.Name, want.FailureResponse, want.Description, want.UpdatedAt = "renamed", "Sorry, try later.", "", got.UpdatedAt
	if str(got) != str(want) {
		t.Errorf("UpdateWorkflow = %s\nwant             %s", str(got), str(want))
	}
	read, err := s.Workflow(ctx, tn.ws, wf2.ID)
	must(t, err)
	if str(read) != str(got) {
		t.Errorf("Workflow after the update = %s, want %s", str(read), str(got))
	}
	unchanged, err := s.UpdateWorkflow(ctx, tn.ws, wf2.ID, store.WorkflowSettings{})
	must(t, err)
	if str(unchanged) != str(got) {
		t.Errorf("an empty update changed %s to %s", str(got), str(unchanged))
	}
	_, err = s.UpdateWorkflow(ctx, tn.ws, wf2.ID+1_000_000, store.WorkflowSettings{Name: ptr("x")})
	wantErr(t, "updating an unknown workflow", err, store.ErrNotFound)

	for i, g := range []string{`{"v":2}`, `{"v":3}`} {
		_, err := s.Publish(ctx, tn.ws, tn.workflow, json.RawMessage(g), "pub"+string(rune('a'+i)))
		must(t, err)
	}
	versions, err := s.WorkflowVersions(ctx, tn.ws, tn.workflow)
	must(t, err)
	if len(versions) != 3 || versions[0].Number != 3 || versions[1].Number != 2 || versions[2].Number != 1 ||
		string(versions[0].Graph) != `{"v":3}` || versions[0].PublishedBy != "pubb" || versions[1].PublishedBy != "puba" ||
		versions[0].WorkflowID != tn.workflow || versions[0].WorkspaceID != tn.ws || versions[2].PublishedAt.IsZero() {
		t.Errorf("WorkflowVersions = %s", str(versions))
	}
	none, err := s.WorkflowVersions(ctx, tn.ws, wf2.ID)
	must(t, err)
	if len(none) != 0 {
		t.Errorf("versions of an unpublished workflow: %s", str(none))
	}
	_, err = s.WorkflowVersions(ctx, tn.ws, wf2.ID+1_000_000)
	wantErr(t, "versions of an unknown workflow", err, store.ErrNotFound)
}

// testAgentListing lists agents and updates them, attaching and detaching
// workflows.
func testAgentListing(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	a2, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: tn.ws, Name: "second", Persona: "terse"})
	must(t, err)
	list, err := s.Agents(ctx, tn.ws)
	must(t, err)
	if len(list) != 2 || list[0].ID != tn.agent || list[0].WorkflowID != tn.workflow ||
		list[1].ID != a2.ID || list[1].Persona != "terse" || list[1].WorkflowID != 0 {
		t.Errorf("Agents = %s", str(list))
	}

	got, err := s.UpdateAgent(ctx, tn.ws, a2.ID, store.AgentSettings{WorkflowID: ptr(tn.workflow),
		DefaultModel: ptr("m2")})
	must(t, err)
	want := a2
	want.WorkflowID, want.DefaultModel = tn.workflow, "m2"
	if str(got) != str(want) {
		t.Errorf("UpdateAgent = %s, want %s", str(got), str(want))
	}
	got, err = s.UpdateAgent(ctx, tn.ws, a2.ID, store.AgentSettings{Name: ptr("renamed"), Persona: ptr("warm"),
		WorkflowID: ptr(int64(0))})
	must(t, err)
	want.Name, want.Persona, want.WorkflowID = "renamed", "warm", 0
	if str(got) != str(want) {
		t.Errorf("UpdateAgent (detach) = %s, want %s", str(got), str(want))
	}
	_, err = s.UpdateAgent(ctx, tn.ws, a2.ID, store.AgentSettings{Name: ptr("x"), WorkflowID: ptr(other.workflow)})
	wantErr(t, "attaching another workspace's workflow", err, store.ErrNotFound)
	read, err := s.Agent(ctx, tn.ws, a2.ID)
	must(t, err)
	if str(read) != str(want) {
		t.Errorf("a refused update changed the agent: %s, want %s", str(read), str(want))
	}
	_, err = s.UpdateAgent(ctx, tn.ws, a2.ID+1_000_000, store.AgentSettings{Name: ptr("x")})
	wantErr(t, "updating an unknown agent", err, store.ErrNotFound)
}
