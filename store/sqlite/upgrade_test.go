package sqlite_test

import (
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite" // database/sql driver, to build a version-1 file

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/vocab"
)

// TestUpgradeFromV1 opens a file made by the first schema, with a paused
// conversation in it: the later migrations keep every row readable and
// the rules (one open wait per session) in force.
func TestUpgradeFromV1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	v1, err := os.ReadFile(filepath.Join("migrations", "0001_init.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
			applied_at INTEGER NOT NULL) STRICT`,
		string(v1),
		`INSERT INTO schema_migrations VALUES (1, '0001_init.sql', 0)`,
		`INSERT INTO workspaces VALUES (1, 'w', 1000)`,
		`INSERT INTO workflows VALUES (1, 1, 'f', '', NULL, 1, '', 'NONE', 1000, 1000)`,
		`INSERT INTO workflow_versions VALUES (1, 1, 1, '{}', 1000, 'me')`,
		`INSERT INTO agents VALUES (1, 1, 'a', '', '', 1, 1000)`,
		`INSERT INTO sessions VALUES (1, 1, 1, 'ann', 'OPEN', '', 'web', 1000, NULL)`,
		`INSERT INTO runs VALUES (1, 1, 1, 1, 1, 'AWAITING_INPUT', NULL, '[]', '', '', 2000, 2001)`,
		`INSERT INTO messages VALUES (1, 1, 1, 'user', 'hi', '', 1, 0, 2000)`,
		`INSERT INTO messages VALUES (2, 1, 1, 'assistant', 'Which?', '', 1, 1, 2001)`,
		`INSERT INTO waits VALUES (1, 1, 1, 1, 'ask', 'x', 'options', '[[1,"a","Alpha"],[2,"b","Bé \"two\""]]', 'ann', 'OPEN', NULL, 2001, '{"a":1}')`,
		`INSERT INTO workspaces VALUES (2, 'w2', 1000)`,
		`INSERT INTO agents VALUES (2, 2, 'a2', '', '', NULL, 1000)`,
		`INSERT INTO sessions VALUES (2, 2, 2, '', 'OPEN', '', 'web', 1000, NULL)`,
		`INSERT INTO runs VALUES (2, 2, 2, NULL, 1, 'AWAITING_INPUT', NULL, '[]', '', '', 2000, 2001)`,
		`INSERT INTO waits VALUES (2, 2, 2, 2, 'name', 'who', 'free_text', NULL, '', 'OPEN', 999999999999, 2001, '{}')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	versions, err := sqlite.AppliedMigrations(t.Context(), s)
	if err != nil || len(versions) < 2 {
		t.Fatalf("migrations %v, %v", versions, err)
	}
	st, err := s.TurnState(t.Context(), 1, 1, time.UnixMilli(3000))
	if err != nil {
		t.Fatal(err)
	}
	if st.Session.Identity != "ann" || st.Workflow.PublishedVersion != 1 || len(st.History) != 2 ||
		st.History[1].Text != "Which?" || !st.HasWait || st.Wait.ID != 1 || string(st.Snapshot) != `{"a":1}` {
		t.Errorf("after upgrading: %+v", st)
	}
	// Today's waits become await_reply waits whose state holds their
	// saveAs, matchMode and options, as await_reply reads them.
	if want := `{"saveAs":"x","matchMode":"options","options":[[1,"a","Alpha"],[2,"b","Bé \"two\""]]}`; st.Wait.Kind != "await_reply" ||
		st.Wait.ResumeOn != vocab.ResumeOnReply || string(st.Wait.State) != want {
		t.Errorf("upgraded options wait: kind %q, resumed on %q, state %s, want %s", st.Wait.Kind, st.Wait.ResumeOn, st.Wait.State, want)
	}
	free, err := s.TurnState(t.Context(), 2, 2, time.UnixMilli(3000))
	if want := `{"saveAs":"who","matchMode":"free_text"}`; err != nil || !free.HasWait || string(free.Wait.State) != want || free.Wait.NodeID != "name" {
		t.Errorf("upgraded free-text wait: %+v, %v; want state %s", free.Wait, err, want)
	}
	runs, err := s.RunsBySession(t.Context(), 1, 1)
	if err != nil || len(runs) != 1 || runs[0].Status != vocab.RunAwaitingInput {
		t.Errorf("runs after upgrading: %+v, %v", runs, err)
	}
	r, _, err := s.StartTurn(t.Context(), store.TurnStart{
		Message: store.Message{Role: "user", Text: "again"},
		Run:     store.Run{WorkspaceID: 1, SessionID: 1, WorkflowID: 1, Version: 1, ResumedFromRunID: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.Status = vocab.RunAwaitingInput
	err = s.EndTurn(t.Context(), store.TurnEnd{Run: r, Pause: &store.Pause{
		Wait: store.Wait{NodeID: "ask", Kind: "await_reply", ResumeOn: vocab.ResumeOnReply, State: json.RawMessage(`{"saveAs":"y","matchMode":"free_text"}`)}}})
	if !errors.Is(err, store.ErrWaitExists) {
		t.Errorf("a second open wait after upgrading: %v, want ErrWaitExists", err)
	}
	// A session from before the event log numbers its events from 1, and
	// the listings find the old rows.
	evs, err := s.AppendEvents(t.Context(), 1, 1, []store.Event{{Type: "RunStarted"}})
	if err != nil || len(evs) != 1 || evs[0].Seq != 1 {
		t.Errorf("events of an old session: %+v, %v", evs, err)
	}
	sessions, err := s.Sessions(t.Context(), 1, store.SessionQuery{})
	if err != nil || len(sessions) != 1 || sessions[0].Identity != "ann" {
		t.Errorf("Sessions after upgrading: %+v, %v", sessions, err)
	}
	all, err := s.Runs(t.Context(), 1, store.RunQuery{})
	if err != nil || len(all) != 2 || all[1].ID != 1 {
		t.Errorf("Runs after upgrading: %+v, %v", all, err)
	}
}
