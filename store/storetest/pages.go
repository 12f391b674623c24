package storetest

import (
	"testing"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// testSessionPages lists a workspace's sessions newest first, a page at a
// time, with and without filters.
func testSessionPages(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	a2, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: tn.ws, Name: "second"})
	must(t, err)
	var all, ofA2, ended []int64 // newest first
	for i := range 7 {
		agent := tn.agent
		if i%3 == 0 {
			agent = a2.ID
		}
		ss, err := s.CreateSession(ctx, store.Session{WorkspaceID: tn.ws, AgentID: agent, Channel: "web"})
		must(t, err)
		all = append([]int64{ss.ID}, all...)
		if agent == a2.ID {
			ofA2 = append([]int64{ss.ID}, ofA2...)
		}
		if i%2 == 1 {
			must(t, s.EndSession(ctx, tn.ws, ss.ID))
			ended = append([]int64{ss.ID}, ended...)
		}
	}
	newTenant(t, s).session(t, "") // another workspace's, never listed

	page := func(q store.SessionQuery) []int64 {
		t.Helper()
		got, err := s.Sessions(ctx, tn.ws, q)
		must(t, err)
		ids := make([]int64, len(got))
		for i, ss := range got {
			ids[i] = ss.ID
			if ss.WorkspaceID != tn.ws || (q.AgentID != 0 && ss.AgentID != q.AgentID) ||
				(q.Status != "" && ss.Status != q.Status) {
				t.Errorf("Sessions(%+v) returned %s", q, str(ss))
			}
		}
		return ids
	}
	wantIDs(t, "every session", page(store.SessionQuery{}), all)
	wantIDs(t, "first page", page(store.SessionQuery{Limit: 3}), all[:3])
	wantIDs(t, "second page", page(store.SessionQuery{Limit: 3, BeforeID: all[2]}), all[3:6])
	wantIDs(t, "last page", page(store.SessionQuery{Limit: 3, BeforeID: all[5]}), all[6:])
	wantIDs(t, "past the end", page(store.SessionQuery{Limit: 3, BeforeID: all[6]}), nil)
	wantIDs(t, "one agent's", page(store.SessionQuery{AgentID: a2.ID}), ofA2)
	wantIDs(t, "ended", page(store.SessionQuery{Status: store.SessionEnded}), ended)
	wantIDs(t, "one agent's, ended, paged", page(store.SessionQuery{AgentID: a2.ID, Status: store.SessionEnded,
		Limit: 1}), intersect(ofA2, ended)[:1])
	wantIDs(t, "an agent without sessions", page(store.SessionQuery{AgentID: func() int64 {
		a, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: tn.ws, Name: "idle"})
		must(t, err)
		return a.ID
	}()}), nil)
}

// testRunPages lists a workspace's runs newest first, a page at a time,
// across sessions and filtered by session, workflow and status.
func testRunPages(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	s1, s2 := tn.session(t, ""), tn.session(t, "")
	var all, ofS1, completed []int64 // newest first
	for i := range 8 {
		sess := s1
		if i%2 == 1 {
			sess = s2
		}
		r, _ := tn.start(t, sess.ID, "hi")
		if i%3 == 0 {
			must(t, s.EndTurn(ctx, store.TurnEnd{Run: withStatus(r, vocab.RunCompleted)}))
			completed = append([]int64{r.ID}, completed...)
		}
		all = append([]int64{r.ID}, all...)
		if sess.ID == s1.ID {
			ofS1 = append([]int64{r.ID}, ofS1...)
		}
	}
	wf2, err := s.CreateWorkflow(ctx, store.Workflow{WorkspaceID: tn.ws, Name: "unused"})
	must(t, err)
	other := newTenant(t, s)
	other.start(t, other.session(t, "").ID, "elsewhere")

	page := func(q store.RunQuery) []int64 {
		t.Helper()
		got, err := s.Runs(ctx, tn.ws, q)
		must(t, err)
		ids := make([]int64, len(got))
		for i, r := range got {
			ids[i] = r.ID
			if r.WorkspaceID != tn.ws || (q.SessionID != 0 && r.SessionID != q.SessionID) ||
				(q.Status != "" && r.Status != q.Status) {
				t.Errorf("Runs(%+v) returned %s", q, str(r))
			}
		}
		return ids
	}
	wantIDs(t, "every run", page(store.RunQuery{}), all)
	wantIDs(t, "first page", page(store.RunQuery{Limit: 5}), all[:5])
	wantIDs(t, "second page", page(store.RunQuery{Limit: 5, BeforeID: all[4]}), all[5:])
	wantIDs(t, "one session's", page(store.RunQuery{SessionID: s1.ID}), ofS1)
	wantIDs(t, "one session's, paged", page(store.RunQuery{SessionID: s1.ID, Limit: 2, BeforeID: ofS1[1]}), ofS1[2:4])
	wantIDs(t, "completed", page(store.RunQuery{Status: vocab.RunCompleted}), completed)
	wantIDs(t, "one session's completed", page(store.RunQuery{SessionID: s1.ID, Status: vocab.RunCompleted}),
		intersect(ofS1, completed))
	wantIDs(t, "the workflow's", page(store.RunQuery{WorkflowID: tn.workflow, Limit: 200}), all)
	wantIDs(t, "a workflow never run", page(store.RunQuery{WorkflowID: wf2.ID}), nil)
	wantIDs(t, "a session never run", page(store.RunQuery{SessionID: tn.session(t, "").ID}), nil)
}

// testListLimits: 0 is the default page, the maximum is allowed, beyond it
// and below 0 is ErrInvalid.
func testListLimits(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	for range store.DefaultListLimit + 1 {
		tn.session(t, "")
	}
	got, err := s.Sessions(ctx, tn.ws, store.SessionQuery{})
	must(t, err)
	if len(got) != store.DefaultListLimit {
		t.Errorf("a default page holds %d sessions, want %d", len(got), store.DefaultListLimit)
	}
	got, err = s.Sessions(ctx, tn.ws, store.SessionQuery{Limit: store.MaxListLimit})
	must(t, err)
	if len(got) != store.DefaultListLimit+1 {
		t.Errorf("a full page holds %d sessions, want %d", len(got), store.DefaultListLimit+1)
	}
	for _, limit := range []int{-1, store.MaxListLimit + 1} {
		_, err := s.Sessions(ctx, tn.ws, store.SessionQuery{Limit: limit})
		wantErr(t, "Sessions with limit out of range", err, store.ErrInvalid)
		_, err = s.Runs(ctx, tn.ws, store.RunQuery{Limit: limit})
		wantErr(t, "Runs with limit out of range", err, store.ErrInvalid)
	}
}

// wantIDs compares two id lists in order.
func wantIDs(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: ids %v, want %v", what, got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: ids %v, want %v", what, got, want)
			return
		}
	}
}

// intersect keeps the ids of a that are in b, in a's order.
func intersect(a, b []int64) []int64 {
	in := map[int64]bool{}
	for _, id := range b {
		in[id] = true
	}
	var out []int64
	for _, id := range a {
		if in[id] {
			out = append(out, id)
		}
	}
	return out
}
