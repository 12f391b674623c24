package storetest

import (
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

// webhook is a request run's node queues.
func webhook(tn *tenant, run int64, node string) store.OutboundRequest {
	return store.OutboundRequest{WorkspaceID: tn.ws, RunID: run, NodeID: node, Method: "POST",
		URL: "https://hooks.example.com/" + node, Headers: map[string]string{"X-Sig": "sealed:v1:q"},
		Body: []byte(`{"order":42}`)}
}

// testOutboundQueue queues requests and reads them back by run.
func testOutboundQueue(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	r, _ := tn.start(t, tn.session(t, "").ID, "hi")
	due := now().Add(time.Minute)
	in := webhook(tn, r.ID, "notify")
	in.NextAttemptAt, in.Status, in.Attempts = due, store.OutboundSent, 7 // status and attempts are the store's
	q1, err := s.EnqueueOutbound(ctx, in)
	must(t, err)
	if q1.ID <= 0 || q1.Status != store.OutboundPending || q1.Attempts != 0 || q1.LeaseUntil != nil ||
		!sameTime(due, q1.NextAttemptAt) || q1.CreatedAt.IsZero() || q1.FinishedAt != nil {
		t.Errorf("EnqueueOutbound = %s", str(q1))
	}
	bare := store.OutboundRequest{WorkspaceID: tn.ws, RunID: r.ID, NodeID: "ping", Method: "GET",
		URL: "https://hooks.example.com/ping"}
	q2, err := s.EnqueueOutbound(ctx, bare)
	must(t, err)
	if !sameTime(q2.CreatedAt, q2.NextAttemptAt) {
		t.Errorf("a request without a due time is due at %v, created %v", q2.NextAttemptAt, q2.CreatedAt)
	}
	list, err := s.OutboundByRun(ctx, tn.ws, r.ID)
	must(t, err)
	if len(list) != 2 || !reflect.DeepEqual(list[0], q1) || !reflect.DeepEqual(list[1], q2) {
		t.Errorf("OutboundByRun = %s\nwant %s", str(list), str([]store.OutboundRequest{q1, q2}))
	}
	if list[1].Body != nil || list[1].Headers != nil {
		t.Errorf("an empty body and headers read back as %q, %v", list[1].Body, list[1].Headers)
	}
	none, err := s.OutboundByRun(ctx, tn.ws, func() int64 { r, _ := tn.start(t, tn.session(t, "").ID, "x"); return r.ID }())
	must(t, err)
	if len(none) != 0 {
		t.Errorf("a run that queued nothing lists %s", str(none))
	}
	_, err = s.EnqueueOutbound(ctx, webhook(other, r.ID, "stolen"))
	wantErr(t, "queueing for another workspace's run", err, store.ErrNotFound)
	_, err = s.EnqueueOutbound(ctx, webhook(&tenant{ws: tn.ws + other.ws + 1_000_000}, 0, "nowhere"))
	wantErr(t, "queueing in no workspace", err, store.ErrNotFound)
}

// testClaimOutbound walks requests through claims, leases, retries and
// finishes. ClaimOutbound reaches every workspace, so the store is fresh.
func testClaimOutbound(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.fresh(t)
	a, b := newTenant(t, s), newTenant(t, s)
	runOf := map[*tenant]int64{}
	for _, tn := range []*tenant{a, b} {
		r, _ := tn.start(t, tn.session(t, "").ID, "hi")
		runOf[tn] = r.ID
	}
	t0 := now()
	enqueue := func(tn *tenant, node string, due time.Time) store.OutboundRequest {
		r := webhook(tn, runOf[tn], node)
		r.NextAttemptAt = due
		q, err := s.EnqueueOutbound(ctx, r)
		must(t, err)
		return q
	}
	late := enqueue(a, "late", t0.Add(time.Hour))
	second := enqueue(b, "second", t0.Add(-time.Second))
	first := enqueue(a, "first", t0.Add(-time.Minute))
	third := enqueue(a, "third", t0)

	claim := func(at time.Time, limit int) []store.OutboundRequest {
		t.Helper()
		got, err := s.ClaimOutbound(ctx, at, 30*time.Second, limit, nil)
		must(t, err)
		return got
	}
	ids := func(qs []store.OutboundRequest) []int64 {
		out := []int64{}
		for _, q := range qs {
			out = append(out, q.ID)
		}
		return out
	}
	got := claim(t0, 2)
	wantIDs(t, "first claim, oldest due first, across workspaces", ids(got), []int64{first.ID, second.ID})
	for _, q := range got {
		if q.Attempts != 1 || q.LeaseUntil == nil || !sameTime(t0.Add(30*time.Second), *q.LeaseUntil) ||
			q.Status != store.OutboundPending || q.URL == "" || q.Body == nil {
			t.Errorf("claimed %s", str(q))
		}
	}
	wantIDs(t, "leased requests are not claimed again", ids(claim(t0, 10)), []int64{third.ID})
	wantIDs(t, "nothing else is due", ids(claim(t0.Add(time.Second), 10)), []int64{})

	// first is sent; second fails and is retried in a minute.
	must(t, s.FinishOutbound(ctx, first.ID, store.OutboundSent, "", 204, nil))
	retry := t0.Add(time.Minute)
	must(t, s.FinishOutbound(ctx, second.ID, store.OutboundPending, "HTTP_5XX", 503, &retry))
	wantErr(t, "finishing twice", s.FinishOutbound(ctx, first.ID, store.OutboundFailed, "x", 0, nil), store.ErrConflict)
	wantErr(t, "finishing an unclaimed request", s.FinishOutbound(ctx, late.ID, store.OutboundSent, "", 200, nil),
		store.ErrConflict)
	wantErr(t, "finishing an unknown request", s.FinishOutbound(ctx, late.ID+1_000_000, store.OutboundSent, "", 200, nil),
		store.ErrNotFound)

	// At t0+40s third's lease has ended, second is not due yet.
	got = claim(t0.Add(40*time.Second), 10)
	wantIDs(t, "an expired lease is claimed again", ids(got), []int64{third.ID})
	if len(got) == 1 && got[0].Attempts != 2 {
		t.Errorf("a request claimed twice counts %d attempts", got[0].Attempts)
	}
	must(t, s.FinishOutbound(ctx, third.ID, store.OutboundFailed, "TIMEOUT", 0, nil))
	got = claim(t0.Add(2*time.Minute), 10)
	wantIDs(t, "the retry is due", ids(got), []int64{second.ID})

	for _, c := range []struct {
		tn         *tenant
		id         int64
		status     string
		errorClass string
		httpStatus int
		attempts   int
	}{
		{a, first.ID, store.OutboundSent, "", 204, 1},
		{a, third.ID, store.OutboundFailed, "TIMEOUT", 0, 2},
		{b, second.ID, store.OutboundPending, "HTTP_5XX", 503, 2},
		{a, late.ID, store.OutboundPending, "", 0, 0},
	} {
		list, err := s.OutboundByRun(ctx, c.tn.ws, runOf[c.tn])
		must(t, err)
		var q store.OutboundRequest
		for _, x := range list {
			if x.ID == c.id {
				q = x
			}
		}
		finished := c.status != store.OutboundPending
		leased := c.id == second.ID // claimed again at t0+2m, not finished
		if q.Status != c.status || q.ErrorClass != c.errorClass || q.HTTPStatus != c.httpStatus ||
			q.Attempts != c.attempts || (q.FinishedAt != nil) != finished || (q.LeaseUntil != nil) != leased {
			t.Errorf("request %d = %s, want %s after %d attempts (%s, %d), finished %v, leased %v",
				c.id, str(q), c.status, c.attempts, c.errorClass, c.httpStatus, finished, leased)
		}
	}
	// A day on, second's lease has ended and late is due.
	wantIDs(t, "a day on", ids(claim(t0.Add(24*time.Hour), 10)), []int64{second.ID, late.ID})
}

// testClaimOutboundRace claims from many goroutines at once: every request
// is claimed exactly once.
func testClaimOutboundRace(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.fresh(t)
	tn := newTenant(t, s)
	const requests, workers = 120, 8
	for i := range requests {
		r := webhook(tn, 0, "n")
		r.NextAttemptAt = now().Add(-time.Duration(i) * time.Millisecond)
		_, err := s.EnqueueOutbound(ctx, r)
		must(t, err)
	}
	var mu sync.Mutex
	claimed := map[int64]int{}
	var wg sync.WaitGroup
	at := now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got, err := s.ClaimOutbound(ctx, at, time.Minute, 7, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, q := range got {
					claimed[q.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(claimed) != requests {
		t.Errorf("%d of %d requests claimed", len(claimed), requests)
	}
	for id, n := range claimed {
		if n != 1 {
			t.Errorf("request %d claimed %d times", id, n)
		}
	}
}

// testOutboundInputs: FinishOutbound and ClaimOutbound refuse outcomes and
// limits the contract does not know.
func testOutboundInputs(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	next := now()
	for _, c := range []struct {
		name   string
		status string
		next   *time.Time
	}{
		{"unknown status", "DONE", nil},
		{"retry without a time", store.OutboundPending, nil},
		{"sent with a retry time", store.OutboundSent, &next},
	} {
		wantErr(t, c.name, s.FinishOutbound(ctx, 1, c.status, "", 0, c.next), store.ErrInvalid)
	}
	for _, c := range []struct {
		lease time.Duration
		limit int
	}{{0, 1}, {time.Second, 0}, {time.Second, store.MaxClaimLimit + 1}} {
		_, err := s.ClaimOutbound(ctx, next, c.lease, c.limit, nil)
		wantErr(t, "ClaimOutbound with a bad lease or limit", err, store.ErrInvalid)
	}
}

// testClaimOutboundSkips: a claim passes over the workspaces it is told
// to, so a worker can keep one workspace from taking every delivery slot.
func testClaimOutboundSkips(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.fresh(t)
	a, b := newTenant(t, s), newTenant(t, s)
	due := now().Add(-time.Second)
	for _, tn := range []*tenant{a, a, b} {
		r, _ := tn.start(t, tn.session(t, "").ID, "hi")
		q := webhook(tn, r.ID, "notify")
		q.NextAttemptAt = due
		_, err := s.EnqueueOutbound(ctx, q)
		must(t, err)
	}
	got, err := s.ClaimOutbound(ctx, now(), time.Minute, 10, []int64{a.ws})
	must(t, err)
	if len(got) != 1 || got[0].WorkspaceID != b.ws {
		t.Fatalf("claiming past workspace %d: %s", a.ws, str(got))
	}
	got, err = s.ClaimOutbound(ctx, now(), time.Minute, 10, []int64{a.ws, b.ws})
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("claiming past both workspaces: %s", str(got))
	}
	got, err = s.ClaimOutbound(ctx, now(), time.Minute, 10, nil)
	must(t, err)
	if len(got) != 2 || got[0].WorkspaceID != a.ws || got[1].WorkspaceID != a.ws {
		t.Fatalf("claiming with nothing to skip: %s", str(got))
	}
}
