package storetest

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// testCustomActions: id 0 takes the next id, an explicit id inserts or
// replaces (applying twice is a no-op), names are unique per workspace,
// and ids are the workspace's own.
func testCustomActions(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	at := now().Add(-time.Hour)
	claim := store.CustomAction{WorkspaceID: tn.ws, ID: 41, Name: "submit-claim", Method: "POST",
		URL: "https://claims.example.com/v1/claims", Headers: map[string]string{"Authorization": "sealed:v1:xyz"},
		TimeoutMs: 10000, CreatedAt: at, UpdatedAt: at}
	got, err := s.PutCustomAction(ctx, claim)
	must(t, err)
	if !reflect.DeepEqual(got, claim) {
		t.Errorf("PutCustomAction = %s, want %s", str(got), str(claim))
	}
	next, err := s.PutCustomAction(ctx, store.CustomAction{WorkspaceID: tn.ws, Name: "lookup", Method: "GET",
		URL: "https://x.example.com"})
	must(t, err)
	if next.ID != 42 || next.CreatedAt.IsZero() || next.Headers != nil {
		t.Errorf("an action without id got %s, want id 42", str(next))
	}
	first, err := s.PutCustomAction(ctx, store.CustomAction{WorkspaceID: other.ws, Name: "lookup", Method: "GET",
		URL: "https://y.example.com"})
	must(t, err)
	if first.ID != 1 {
		t.Errorf("a workspace's first action got id %d, want 1", first.ID)
	}
	// The same id and name in another workspace is another action.
	_, err = s.PutCustomAction(ctx, store.CustomAction{WorkspaceID: other.ws, ID: 41, Name: "submit-claim",
		Method: "PUT", URL: "https://z.example.com"})
	must(t, err)

	// Applying the file again replaces, keeping when it was created.
	again := claim
	again.URL, again.Headers, again.TimeoutMs, again.UpdatedAt = "https://claims.example.com/v2", nil, 0, time.Time{}
	before := time.Now()
	replaced, err := s.PutCustomAction(ctx, again)
	must(t, err)
	read, err := s.CustomAction(ctx, tn.ws, 41)
	must(t, err)
	if !sameTime(at, read.CreatedAt) || read.UpdatedAt.Before(before.Add(-time.Second)) || read.URL != again.URL ||
		read.Headers != nil || read.TimeoutMs != 0 || !reflect.DeepEqual(read, replaced) {
		t.Errorf("after replacing: %s (Put returned %s)", str(read), str(replaced))
	}

	dup := store.CustomAction{WorkspaceID: tn.ws, Name: "lookup", Method: "GET", URL: "https://x.example.com"}
	_, err = s.PutCustomAction(ctx, dup)
	wantErr(t, "a new action with a taken name", err, store.ErrConflict)
	dup.ID = 41
	_, err = s.PutCustomAction(ctx, dup)
	wantErr(t, "renaming to a taken name", err, store.ErrConflict)
	_, err = s.PutCustomAction(ctx, store.CustomAction{WorkspaceID: tn.ws + other.ws + 1_000_000, Name: "x",
		Method: "GET", URL: "https://x.example.com"})
	wantErr(t, "an action of no workspace", err, store.ErrNotFound)

	list, err := s.CustomActions(ctx, tn.ws)
	must(t, err)
	if len(list) != 2 || list[0].ID != 41 || list[1].ID != 42 || list[0].URL != again.URL || list[1].Name != "lookup" {
		t.Errorf("CustomActions = %s", str(list))
	}
	must(t, s.DeleteCustomAction(ctx, tn.ws, 41))
	_, err = s.CustomAction(ctx, tn.ws, 41)
	wantErr(t, "a deleted action", err, store.ErrNotFound)
	wantErr(t, "deleting twice", s.DeleteCustomAction(ctx, tn.ws, 41), store.ErrNotFound)
	if _, err := s.CustomAction(ctx, other.ws, 41); err != nil {
		t.Errorf("deleting an action deleted another workspace's with its id: %v", err)
	}
}

// testMcpConnectors: the same registry rules as custom actions, for both
// transports.
func testMcpConnectors(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	at := now().Add(-time.Hour)
	orders := store.McpConnector{WorkspaceID: tn.ws, ID: 12, Name: "orders", Transport: store.TransportStdio,
		Command: []string{"orders-mcp", "--readonly"}, Credentials: map[string]string{"TOKEN": "sealed:v1:abc"},
		Tools: json.RawMessage(`[{"name":"lookup","inputSchema":{"type":"object"}}]`), CreatedAt: at, UpdatedAt: at}
	got, err := s.PutMcpConnector(ctx, orders)
	must(t, err)
	if !reflect.DeepEqual(got, orders) {
		t.Errorf("PutMcpConnector = %s, want %s", str(got), str(orders))
	}
	crm := store.McpConnector{WorkspaceID: tn.ws, Name: "crm", Transport: store.TransportHTTP,
		URL: "https://crm.example.com/mcp"}
	crm, err = s.PutMcpConnector(ctx, crm)
	must(t, err)
	if crm.ID != 13 {
		t.Errorf("a connector without id got %d, want 13", crm.ID)
	}
	read, err := s.McpConnector(ctx, tn.ws, 12)
	must(t, err)
	if !reflect.DeepEqual(read, orders) {
		t.Errorf("McpConnector = %s, want %s", str(read), str(orders))
	}
	read, err = s.McpConnector(ctx, tn.ws, 13)
	must(t, err)
	if read.Command != nil || read.Credentials != nil || read.Tools != nil || read.URL != crm.URL ||
		read.Transport != store.TransportHTTP {
		t.Errorf("McpConnector = %s, want %s", str(read), str(crm))
	}

	again := orders
	again.Command, again.Tools, again.UpdatedAt = []string{"orders-mcp"}, json.RawMessage(`[]`), time.Time{}
	_, err = s.PutMcpConnector(ctx, again)
	must(t, err)
	read, err = s.McpConnector(ctx, tn.ws, 12)
	must(t, err)
	if !sameTime(at, read.CreatedAt) || !reflect.DeepEqual(read.Command, again.Command) || string(read.Tools) != `[]` {
		t.Errorf("after replacing: %s", str(read))
	}
	_, err = s.PutMcpConnector(ctx, store.McpConnector{WorkspaceID: tn.ws, ID: 12, Name: "crm",
		Transport: store.TransportHTTP, URL: "https://x.example.com"})
	wantErr(t, "renaming to a taken name", err, store.ErrConflict)
	if _, err := s.PutMcpConnector(ctx, store.McpConnector{WorkspaceID: other.ws, Name: "crm",
		Transport: store.TransportHTTP, URL: "https://crm.example.com/mcp"}); err != nil {
		t.Errorf("the same name in another workspace: %v", err)
	}

	list, err := s.McpConnectors(ctx, tn.ws)
	must(t, err)
	if len(list) != 2 || list[0].ID != 12 || list[1].ID != 13 {
		t.Errorf("McpConnectors = %s", str(list))
	}
	must(t, s.DeleteMcpConnector(ctx, tn.ws, 13))
	wantErr(t, "deleting twice", s.DeleteMcpConnector(ctx, tn.ws, 13), store.ErrNotFound)
	_, err = s.McpConnector(ctx, tn.ws, 13)
	wantErr(t, "a deleted connector", err, store.ErrNotFound)
}
