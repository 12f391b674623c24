package postgres_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store/postgres"
	"github.com/wetel/wetel/store/postgres/pgtest"
	"github.com/wetel/wetel/vocab"
)

// TestUpgradeWaits opens a schema made by the migrations before waits had
// kinds, holding an options question and a free-text one: the upgrade turns
// both into await_reply waits whose state holds what the columns held, and
// keeps one open question per session.
func TestUpgradeWaits(t *testing.T) {
	u := pgtest.URL(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		v    int
		file string
	}{{1, "0001_init.sql"}, {3, "0003_keys_listings_outbound.sql"}} {
		sql, err := os.ReadFile(filepath.Join("migrations", m.file))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Exec(ctx, string(sql), pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: %v", m.file, err)
		}
		if _, err := c.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.v, m.file); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Unix(2000, 0).UTC()
	for _, q := range []string{
		`INSERT INTO workspaces (name, created_at) VALUES ('w', $1)`,
		`INSERT INTO workflows (workspace_id, created_at, updated_at, published_version, name, description, failure_response, notify_on_failure)
			VALUES (1, $1, $1, 0, 'f', '', '', 'NONE')`,
		`INSERT INTO agents (workspace_id, workflow_id, created_at, name, persona, default_model) VALUES (1, 1, $1, 'a', '', '')`,
		`INSERT INTO sessions (workspace_id, agent_id, created_at, identity, status, client_external_id, channel)
			VALUES (1, 1, $1, 'ann', 'OPEN', '', ''), (1, 1, $1, '', 'OPEN', '', '')`,
		`INSERT INTO runs (workspace_id, session_id, workflow_id, started_at, version, status, error, error_code)
			VALUES (1, 1, 1, $1, 1, 'AWAITING_INPUT', '', ''), (1, 2, 1, $1, 1, 'AWAITING_INPUT', '', '')`,
		`INSERT INTO waits (workspace_id, session_id, run_id, created_at, node_id, save_as, match_mode, options, identity, status, snapshot)
			VALUES (1, 1, 1, $1, 'ask', 'x', 'options', '[[1,"a","Alpha"],[2,"b","Bé \"two\""]]', 'ann', 'OPEN', '{"a":1}'),
			(1, 2, 2, $1, 'name', 'who', 'free_text', NULL, '', 'OPEN', '{}')`,
	} {
		if _, err := c.Exec(ctx, q, at); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	s, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Unix(3000, 0)
	for _, tc := range []struct {
		session   int64
		node, key string
		want      map[string]any
	}{
		{1, "ask", "x", map[string]any{"saveAs": "x", "matchMode": "options",
			"options": []any{[]any{1.0, "a", "Alpha"}, []any{2.0, "b", `Bé "two"`}}}},
		{2, "name", "who", map[string]any{"saveAs": "who", "matchMode": "free_text"}},
	} {
		st, err := s.TurnState(ctx, 1, tc.session, now)
		if err != nil || !st.HasWait {
			t.Fatalf("session %d after upgrading: %+v, %v", tc.session, st, err)
		}
		w := st.Wait
		if w.Kind != "await_reply" || w.ResumeOn != vocab.ResumeOnReply || w.NodeID != tc.node {
			t.Errorf("session %d: kind %q, resumed on %q, node %q", tc.session, w.Kind, w.ResumeOn, w.NodeID)
		}
		if got := decodeJSON(t, w.State); !equalJSON(got, tc.want) {
			t.Errorf("session %d: state %s, want %v", tc.session, w.State, tc.want)
		}
	}
	// The rule moved with the rows: still one open question per session.
	if _, err := c.Exec(ctx, `INSERT INTO waits (workspace_id, session_id, run_id, created_at, node_id, kind, resume_on, identity, status)
		VALUES (1, 1, 1, $1, 'again', 'await_reply', 'reply', '', 'OPEN')`, at); err == nil {
		t.Error("a second open question in one session was stored")
	}
	// And a closed wait keeps its outcome.
	if _, err := c.Exec(ctx, `UPDATE waits SET status = 'CANCELLED' WHERE session_id = 2`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `UPDATE waits SET status = 'ANSWERED' WHERE session_id = 2`); err == nil {
		t.Error("a closed wait's outcome was changed")
	}
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func equalJSON(a, b any) bool { return reflect.DeepEqual(a, b) }
