package storetest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// testOpenWaitRace has two turns of one session pause at the same moment,
// 50 times: the database lets exactly one open its wait.
func testOpenWaitRace(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	for round := 0; round < 50; round++ {
		sess := tn.session(t, "")
		runs := [2]store.Run{}
		runs[0], _ = tn.start(t, sess.ID, "a")
		runs[1], _ = tn.start(t, sess.ID, "b")
		var errs [2]error
		var wg sync.WaitGroup
		gate := make(chan struct{})
		for i := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-gate
				errs[i] = s.EndTurn(t.Context(), pauseEnd(runs[i], now().Add(time.Hour), nil))
			}()
		}
		close(gate)
		wg.Wait()
		won := 0
		for i, err := range errs {
			switch {
			case err == nil:
				won++
			case wantIs(err, store.ErrWaitExists):
				got, gerr := s.Run(t.Context(), tn.ws, runs[i].ID)
				must(t, gerr)
				if got.Status != vocab.RunRunning {
					t.Errorf("round %d: the losing run was written as %s", round, got.Status)
				}
			default:
				t.Errorf("round %d: EndTurn: %v", round, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d of 2 racing pauses succeeded (%v), want exactly 1", round, won, errs)
		}
		pending, err := s.PendingWaits(t.Context(), tn.ws, sess.ID, KindQuestion, now())
		must(t, err)
		if len(pending) != 1 {
			t.Fatalf("round %d: %d open waits, want 1", round, len(pending))
		}
	}
}

func testOpenWait(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn := newTenant(t, s)
	sess := tn.session(t, "zed")
	_, _, err := s.OpenWait(ctx, tn.ws, sess.ID, now())
	wantErr(t, "no wait yet", err, store.ErrNotFound)

	// A free-text question with no expiry (the zero ExpiresAt).
	r, _ := tn.start(t, sess.ID, "hi")
	r.Status = vocab.RunAwaitingInput
	snap := json.RawMessage(`{"big":"` + string(bytes.Repeat([]byte("x"), 5000)) + `"}`)
	must(t, s.EndTurn(ctx, store.TurnEnd{Run: r, Pause: &store.Pause{
		Wait:     freeText("name", "zed"),
		Snapshot: snap}}))
	w, got, err := s.OpenWait(ctx, tn.ws, sess.ID, now().Add(100*365*24*time.Hour))
	must(t, err)
	if !bytes.Equal(got, snap) || string(w.State) != freeTextState || !w.ExpiresAt.IsZero() || w.Kind != KindQuestion {
		t.Errorf("OpenWait = %s with a %d-byte snapshot", str(w), len(got))
	}
}

func testOpenWaitExpires(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	expires := now().Add(time.Hour)
	for _, c := range []struct {
		name    string
		at      time.Time
		expired bool
	}{
		{"a millisecond before", expires.Add(-time.Millisecond), false},
		{"at expiry", expires, true},
		{"after", expires.Add(time.Minute), true},
	} {
		ctx := t.Context()
		sess := tn.session(t, "")
		r, _ := tn.start(t, sess.ID, "hi")
		tn.pause(t, r, expires)
		_, _, err := s.OpenWait(ctx, tn.ws, sess.ID, c.at)
		if !c.expired {
			must(t, err)
			continue
		}
		wantErr(t, c.name, err, store.ErrNotFound)
		// It was closed, not just hidden: even at an earlier time it is
		// gone, and the session may open a new wait.
		_, _, err = s.OpenWait(ctx, tn.ws, sess.ID, expires.Add(-time.Hour))
		wantErr(t, c.name+", asked again earlier", err, store.ErrNotFound)
		r2, _ := tn.start(t, sess.ID, "again")
		if err := s.EndTurn(ctx, pauseEnd(r2, expires.Add(time.Hour), nil)); err != nil {
			t.Errorf("%s: pausing after expiry: %v", c.name, err)
		}
	}
}

func testPendingWaits(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.shared
	tn, other := newTenant(t, s), newTenant(t, s)
	at := now()
	pausedAt := func(tn *tenant, expires time.Time) (store.Session, store.Wait) {
		sess := tn.session(t, "")
		r, _ := tn.start(t, sess.ID, "hi")
		tn.pause(t, r, expires)
		w, _, err := s.OpenWait(ctx, tn.ws, sess.ID, at.Add(-time.Hour))
		must(t, err)
		return sess, w
	}
	s1, w1 := pausedAt(tn, at.Add(time.Hour))
	_, w2 := pausedAt(tn, at.Add(2*time.Hour))
	s3, _ := pausedAt(tn, at) // expired at `at`
	s4 := tn.session(t, "")   // never asked
	_, _ = pausedAt(other, at.Add(time.Hour))

	for _, c := range []struct {
		name    string
		session int64
		want    []store.Wait
	}{
		{"workspace", 0, []store.Wait{w1, w2}},
		{"one session", s1.ID, []store.Wait{w1}},
		{"expired session", s3.ID, nil},
		{"session never asked", s4.ID, nil},
	} {
		got, err := s.PendingWaits(ctx, tn.ws, c.session, KindQuestion, at)
		must(t, err)
		if (len(got) != 0 || len(c.want) != 0) && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: PendingWaits = %s\nwant %s", c.name, str(got), str(c.want))
		}
	}
}

// testConcurrentFailuresIsolated ends two runs of each of 16 sessions at
// once, each asking a question: one pause per session loses to the
// one-open-wait rule. Whichever writes share a transaction, a losing turn
// leaves nothing (its run stays RUNNING, its message unwritten) and every
// winning turn is kept whole.
func testConcurrentFailuresIsolated(t *testing.T, e *env) {
	s := e.shared
	tn := newTenant(t, s)
	const sessions = 16
	type pair struct {
		sess store.Session
		runs [2]store.Run
		errs [2]error
	}
	pairs := make([]*pair, sessions)
	for i := range pairs {
		p := &pair{sess: tn.session(t, "")}
		p.runs[0], _ = tn.start(t, p.sess.ID, "a")
		p.runs[1], _ = tn.start(t, p.sess.ID, "b")
		pairs[i] = p
	}
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for _, p := range pairs {
		for k := range p.runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-gate
				p.errs[k] = s.EndTurn(t.Context(), pauseEnd(p.runs[k], now().Add(time.Hour), nil))
			}()
		}
	}
	close(gate)
	wg.Wait()
	for i, p := range pairs {
		won := -1
		for k, err := range p.errs {
			switch {
			case err == nil && won < 0:
				won = k
			case err == nil:
				t.Errorf("session %d: both pauses succeeded", i)
			case !wantIs(err, store.ErrWaitExists):
				t.Errorf("session %d: EndTurn: %v", i, err)
			}
		}
		if won < 0 {
			t.Errorf("session %d: no pause succeeded: %v", i, p.errs)
			continue
		}
		lost := p.runs[1-won]
		got, err := s.Run(t.Context(), tn.ws, lost.ID)
		must(t, err)
		if got.Status != vocab.RunRunning {
			t.Errorf("session %d: the losing run was written as %s", i, got.Status)
		}
		msgs, err := s.Messages(t.Context(), tn.ws, p.sess.ID)
		must(t, err)
		var asked int
		for _, m := range msgs {
			if m.Role == "assistant" {
				asked++
				if m.RunID != p.runs[won].ID {
					t.Errorf("session %d: a message of the losing run %d was kept", i, lost.ID)
				}
			}
		}
		if len(msgs) != 3 || asked != 1 {
			t.Errorf("session %d: %d messages (%d assistant), want the 2 user messages and 1 question", i, len(msgs), asked)
		}
	}
}

// testCountOpenWaits counts open, unexpired waits of every workspace, so
// the store is its own.
func testCountOpenWaits(t *testing.T, e *env) {
	ctx := t.Context()
	s := e.fresh(t)
	a, b := newTenant(t, s), newTenant(t, s)
	t0 := now()
	for _, c := range []struct {
		tn      *tenant
		expires time.Time
	}{{a, t0.Add(time.Hour)}, {a, time.Time{}}, {b, t0.Add(time.Minute)}, {b, t0.Add(-time.Second)}} {
		r, _ := c.tn.start(t, c.tn.session(t, "").ID, "hi")
		c.tn.pause(t, r, c.expires)
	}
	answered := a.session(t, "")
	r, _ := a.start(t, answered.ID, "hi")
	a.pause(t, r, time.Time{})
	must(t, s.EndSession(ctx, a.ws, answered.ID))
	for _, c := range []struct {
		at   time.Time
		want int
	}{{t0, 3}, {t0.Add(2 * time.Minute), 2}, {t0.Add(2 * time.Hour), 1}} {
		n, err := s.CountOpenWaits(ctx, c.at)
		must(t, err)
		if n != c.want {
			t.Errorf("CountOpenWaits at %v = %d, want %d", c.at.Sub(t0), n, c.want)
		}
	}
}

// KindQuestion is the kind of the waits most cases store: await_reply's.
// The store keeps a wait's kind and state as it is given; these cases use
// the state await_reply writes, so they read like the waits a server holds.
const KindQuestion = "await_reply"

// freeTextState is what a free-text question named "name" stores.
const freeTextState = `{"saveAs":"name","matchMode":"free_text"}`

// freeText is an OPEN free-text question, as await_reply leaves it.
func freeText(nodeID, identity string) store.Wait {
	return store.Wait{NodeID: nodeID, Kind: KindQuestion, ResumeOn: vocab.ResumeOnReply,
		State: json.RawMessage(freeTextState), Identity: identity}
}
