package storetest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/wetel/wetel/store"
)

// crossCase is one call of testCrossWorkspace with another workspace's id;
// it must fail with ErrNotFound.
type crossCase struct {
	name string
	call func(ctx context.Context) error
}

// apiRows is what testCrossWorkspace reads of workspace A through the API
// methods, before and after B's calls, to see that nothing changed.
type apiRows struct {
	Workflows  []store.Workflow
	Versions   []store.WorkflowVersion
	Agents     []store.Agent
	Sessions   []store.Session
	Runs       []store.Run
	Keys       []store.APIKey
	Key        store.APIKey
	Actions    []store.CustomAction
	Connectors []store.McpConnector
	Outbound   []store.OutboundRequest
	Events     []store.Event
}

// apiFixture is A's rows of every API kind, and B's view of them.
type apiFixture struct {
	s            store.Store
	a, b         *tenant
	session, run int64
	key          store.APIKey
	action, conn int64
}

// newAPIFixture gives workspace a a key, an action, a connector, a queued
// request of run and events of session.
func newAPIFixture(t *testing.T, s store.Store, a, b *tenant, session, run int64) *apiFixture {
	ctx := t.Context()
	x := &apiFixture{s: s, a: a, b: b, session: session, run: run}
	var err error
	x.key, err = s.CreateAPIKey(ctx, newKey(t, a.ws, "a's key"))
	must(t, err)
	act, err := s.PutCustomAction(ctx, store.CustomAction{WorkspaceID: a.ws, ID: 41, Name: "a's action",
		Method: "POST", URL: "https://a.example.com"})
	must(t, err)
	conn, err := s.PutMcpConnector(ctx, store.McpConnector{WorkspaceID: a.ws, ID: 12, Name: "a's connector",
		Transport: store.TransportHTTP, URL: "https://a.example.com/mcp"})
	must(t, err)
	x.action, x.conn = act.ID, conn.ID
	_, err = s.EnqueueOutbound(ctx, webhook(a, run, "a's hook"))
	must(t, err)
	_, err = s.AppendEvents(ctx, a.ws, session, events("a's event", 2))
	must(t, err)
	return x
}

// look reads A's rows through every API method.
func (x *apiFixture) look(t *testing.T) apiRows {
	ctx := t.Context()
	s, ws := x.s, x.a.ws
	var r apiRows
	var err error
	steps := []func() error{
		func() error { r.Workflows, err = s.Workflows(ctx, ws); return err },
		func() error { r.Versions, err = s.WorkflowVersions(ctx, ws, x.a.workflow); return err },
		func() error { r.Agents, err = s.Agents(ctx, ws); return err },
		func() error { r.Sessions, err = s.Sessions(ctx, ws, store.SessionQuery{}); return err },
		func() error { r.Runs, err = s.Runs(ctx, ws, store.RunQuery{}); return err },
		func() error { r.Keys, err = s.APIKeys(ctx, ws); return err },
		func() error { r.Key, err = s.APIKeyByHash(ctx, x.key.Hash); return err },
		func() error { r.Actions, err = s.CustomActions(ctx, ws); return err },
		func() error { r.Connectors, err = s.McpConnectors(ctx, ws); return err },
		func() error { r.Outbound, err = s.OutboundByRun(ctx, ws, x.run); return err },
		func() error { r.Events, err = s.EventsAfter(ctx, ws, x.session, 0, 0); return err },
	}
	for _, step := range steps {
		must(t, step())
	}
	return r
}

// cases are B's calls on A's ids through the API methods.
func (x *apiFixture) cases() []crossCase {
	s, a, bws := x.s, x.a, x.b.ws
	return []crossCase{
		{"UpdateWorkflow", func(ctx context.Context) error {
			_, err := s.UpdateWorkflow(ctx, bws, a.workflow, store.WorkflowSettings{Name: ptr("stolen")})
			return err
		}},
		{"WorkflowVersions", func(ctx context.Context) error { _, err := s.WorkflowVersions(ctx, bws, a.workflow); return err }},
		{"UpdateAgent", func(ctx context.Context) error {
			_, err := s.UpdateAgent(ctx, bws, a.agent, store.AgentSettings{Name: ptr("stolen")})
			return err
		}},
		{"UpdateAgent/workflow", func(ctx context.Context) error {
			_, err := s.UpdateAgent(ctx, bws, x.b.agent, store.AgentSettings{WorkflowID: ptr(a.workflow)})
			return err
		}},
		{"Sessions/agent", func(ctx context.Context) error {
			_, err := s.Sessions(ctx, bws, store.SessionQuery{AgentID: a.agent})
			return err
		}},
		{"Runs/session", func(ctx context.Context) error {
			_, err := s.Runs(ctx, bws, store.RunQuery{SessionID: x.session})
			return err
		}},
		{"Runs/workflow", func(ctx context.Context) error {
			_, err := s.Runs(ctx, bws, store.RunQuery{WorkflowID: a.workflow})
			return err
		}},
		{"RevokeAPIKey", func(ctx context.Context) error { return s.RevokeAPIKey(ctx, bws, x.key.ID) }},
		{"TouchAPIKey", func(ctx context.Context) error { return s.TouchAPIKey(ctx, bws, x.key.ID, now()) }},
		{"CustomAction", func(ctx context.Context) error { _, err := s.CustomAction(ctx, bws, x.action); return err }},
		{"DeleteCustomAction", func(ctx context.Context) error { return s.DeleteCustomAction(ctx, bws, x.action) }},
		{"McpConnector", func(ctx context.Context) error { _, err := s.McpConnector(ctx, bws, x.conn); return err }},
		{"DeleteMcpConnector", func(ctx context.Context) error { return s.DeleteMcpConnector(ctx, bws, x.conn) }},
		{"EnqueueOutbound/run", func(ctx context.Context) error {
			_, err := s.EnqueueOutbound(ctx, webhook(x.b, x.run, "stolen"))
			return err
		}},
		{"OutboundByRun", func(ctx context.Context) error { _, err := s.OutboundByRun(ctx, bws, x.run); return err }},
		{"AppendEvents", func(ctx context.Context) error {
			_, err := s.AppendEvents(ctx, bws, x.session, []store.Event{{Type: "x", Payload: json.RawMessage(`1`)}})
			return err
		}},
		{"EventsAfter", func(ctx context.Context) error { _, err := s.EventsAfter(ctx, bws, x.session, 0, 0); return err }},
		{"LastEventSeq", func(ctx context.Context) error { _, err := s.LastEventSeq(ctx, bws, x.session); return err }},
	}
}
