package storetest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wetel/wetel/store"
)

// testInvalidInputs: every method that takes a new kind of input refuses a
// broken one with ErrInvalid, naming the field, before writing anything.
func testInvalidInputs(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	key := newKey(t, tn.ws, "k")
	withKey := func(f func(*store.APIKey)) error {
		k := key
		f(&k)
		_, err := s.CreateAPIKey(ctx, k)
		return err
	}
	action := store.CustomAction{WorkspaceID: tn.ws, Name: "a", Method: "GET", URL: "https://a.example.com"}
	withAction := func(f func(*store.CustomAction)) error {
		a := action
		f(&a)
		_, err := s.PutCustomAction(ctx, a)
		return err
	}
	conn := store.McpConnector{WorkspaceID: tn.ws, Name: "c", Transport: store.TransportStdio, Command: []string{"srv"}}
	withConn := func(f func(*store.McpConnector)) error {
		c := conn
		f(&c)
		_, err := s.PutMcpConnector(ctx, c)
		return err
	}
	for _, c := range []struct {
		field string // the error must name it
		err   error
	}{
		{"name", withKey(func(k *store.APIKey) { k.Name = " " })},
		{"role", withKey(func(k *store.APIKey) { k.Role = "ADMIN" })},
		{"prefix", withKey(func(k *store.APIKey) { k.Prefix = "" })},
		{"hash", withKey(func(k *store.APIKey) { k.Hash = strings.ToUpper(k.Hash) })},
		{"hash", withKey(func(k *store.APIKey) { k.Hash = "abc" })},
		{"name", withAction(func(a *store.CustomAction) { a.Name = "" })},
		{"method", withAction(func(a *store.CustomAction) { a.Method = "post" })},
		{"method", withAction(func(a *store.CustomAction) { a.Method = "CONNECT" })},
		{"url", withAction(func(a *store.CustomAction) { a.URL = "" })},
		{"timeoutMs", withAction(func(a *store.CustomAction) { a.TimeoutMs = -1 })},
		{"id", withAction(func(a *store.CustomAction) { a.ID = -1 })},
		{"name", withConn(func(c *store.McpConnector) { c.Name = "" })},
		{"transport", withConn(func(c *store.McpConnector) { c.Transport = "websocket" })},
		{"command", withConn(func(c *store.McpConnector) { c.Command = nil })},
		{"url", withConn(func(c *store.McpConnector) { c.Transport = store.TransportHTTP })},
		{"tools", withConn(func(c *store.McpConnector) { c.Tools = json.RawMessage(`[{`) })},
		{"method", func() error {
			_, err := s.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: tn.ws, Method: "", URL: "https://x"})
			return err
		}()},
		{"url", func() error {
			_, err := s.EnqueueOutbound(ctx, store.OutboundRequest{WorkspaceID: tn.ws, Method: "POST"})
			return err
		}()},
		{"name", func() error {
			_, err := s.UpdateWorkflow(ctx, tn.ws, tn.workflow, store.WorkflowSettings{Name: ptr("")})
			return err
		}()},
		{"notifyOnFailure", func() error {
			_, err := s.UpdateWorkflow(ctx, tn.ws, tn.workflow, store.WorkflowSettings{NotifyOnFailure: ptr("ALL")})
			return err
		}()},
		{"name", func() error {
			_, err := s.UpdateAgent(ctx, tn.ws, tn.agent, store.AgentSettings{Name: ptr("")})
			return err
		}()},
		{"workflowId", func() error {
			_, err := s.UpdateAgent(ctx, tn.ws, tn.agent, store.AgentSettings{WorkflowID: ptr(int64(-1))})
			return err
		}()},
		{"status", func() error {
			_, err := s.Sessions(ctx, tn.ws, store.SessionQuery{Status: "CLOSED"})
			return err
		}()},
		{"beforeId", func() error {
			_, err := s.Sessions(ctx, tn.ws, store.SessionQuery{BeforeID: -1})
			return err
		}()},
		{"status", func() error {
			_, err := s.Runs(ctx, tn.ws, store.RunQuery{Status: "DONE"})
			return err
		}()},
	} {
		if !wantIs(c.err, store.ErrInvalid) || !strings.Contains(c.err.Error(), c.field) {
			t.Errorf("want ErrInvalid naming %s, got %v", c.field, c.err)
		}
	}
	keys, err := s.APIKeys(ctx, tn.ws)
	must(t, err)
	actions, err := s.CustomActions(ctx, tn.ws)
	must(t, err)
	conns, err := s.McpConnectors(ctx, tn.ws)
	must(t, err)
	wf, err := s.Workflow(ctx, tn.ws, tn.workflow)
	must(t, err)
	if len(keys)+len(actions)+len(conns) != 0 || wf.Name != "flow" {
		t.Errorf("refused inputs were written: %s %s %s %s", str(keys), str(actions), str(conns), str(wf))
	}
}
