package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// Typical sizes of what a paused conversation stores, for the benchmarks:
// a user message and a reply of about 100 bytes, a run trace of about 600,
// five options, and a snapshot of about 300.
var (
	// benchState is what await_reply stores for a five-option question.
	benchState = json.RawMessage(`{"saveAs":"drink","matchMode":"options","options":[[1,"espresso","Espresso"],` +
		`[2,"latte","Caffè latte"],[3,"cappuccino","Cappuccino"],[4,"flat_white","Flat white"],[5,"mocha","Mocha"]]}`)
	benchUser  = "Hi! I'd like to order a coffee for pickup at the Main Street store in about 15 minutes, please."
	benchReply = "Of course. Which coffee would you like? Reply with the number or the name of one of these options:"
)

// benchTrace is a six-node run trace of about 600 bytes.
func benchTrace(run int64) json.RawMessage {
	nodes := []string{"start", "classify_intent", "load_menu", "greet", "choose_drink", "ask_drink"}
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = fmt.Sprintf(`{"nodeId":"%s","type":"%s","status":"ok","visit":1,"startedMs":%d,"ms":%d}`,
			n, strings.SplitN(n, "_", 2)[0], 1_700_000_000_000+run*10+int64(i), i*3+1)
	}
	return json.RawMessage(`[` + strings.Join(parts, ",") + `]`)
}

// benchSnapshot is a run context of about 300 bytes.
func benchSnapshot(session int64) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"userMessage":%q,"sessionId":%d,"agentId":1,"turnIndex":0,`+
		`"channel":"web","intent":"order","store":"main-street","pickupInMinutes":15,`+
		`"menu":{"version":42,"region":"eu"},"greeted":true,"customer":{"tier":"gold"}}`, benchUser, session))
}

// SeedPausedSession stores the i-th paused conversation of typical size in
// workspace ws: a session, the user's message, a run that replied once and
// asked a five-option question.
func SeedPausedSession(ctx context.Context, s store.Store, ws, agent, workflow int64, i int) error {
	_, err := seedPaused(ctx, s, ws, agent, workflow, i)
	return err
}

// seedPaused is SeedPausedSession, returning the session.
func seedPaused(ctx context.Context, s store.Store, ws, agent, workflow int64, i int) (store.Session, error) {
	sess, err := s.CreateSession(ctx, store.Session{WorkspaceID: ws, AgentID: agent,
		Identity: fmt.Sprintf("customer-%06d", i), ClientExternalID: fmt.Sprintf("c-%06d", i), Channel: "web"})
	if err != nil {
		return store.Session{}, err
	}
	r, _, err := s.StartTurn(ctx, store.TurnStart{
		Message: store.Message{Role: "user", Text: benchUser},
		Run:     store.Run{WorkspaceID: ws, SessionID: sess.ID, WorkflowID: workflow, Version: 1},
	})
	if err != nil {
		return store.Session{}, err
	}
	return sess, s.EndTurn(ctx, benchPause(r, sess, nil))
}

func benchPause(r store.Run, sess store.Session, closeWait *store.WaitClose) store.TurnEnd {
	now := time.Now()
	r.Status, r.NodeTrace, r.FinishedAt = vocab.RunAwaitingInput, benchTrace(r.ID), &now
	return store.TurnEnd{
		Run:       r,
		Messages:  []store.Message{{Role: "assistant", Text: benchReply, TurnComplete: true, CreatedAt: now}},
		CloseWait: closeWait,
		Pause: &store.Pause{
			Wait: store.Wait{NodeID: "ask_drink", Kind: KindQuestion, ResumeOn: vocab.ResumeOnReply,
				State: benchState, Identity: sess.Identity, ExpiresAt: now.Add(24 * time.Hour)},
			Snapshot: benchSnapshot(sess.ID),
		},
	}
}

// BenchTenant creates the workspace, published workflow and agent that
// the benchmarks' sessions belong to.
func BenchTenant(tb testing.TB, s store.Store) (ws, agent, workflow int64) {
	tb.Helper()
	ctx := context.Background()
	w, err := s.CreateWorkspace(ctx, "bench")
	if err != nil {
		tb.Fatal(err)
	}
	wf, err := s.CreateWorkflow(ctx, store.Workflow{WorkspaceID: w.ID, Name: "coffee"})
	if err != nil {
		tb.Fatal(err)
	}
	a, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: w.ID, Name: "barista", WorkflowID: wf.ID})
	if err != nil {
		tb.Fatal(err)
	}
	return w.ID, a.ID, wf.ID
}

// BenchTurns measures whole turns on paused sessions, in the steady state
// of a conversation: each op starts a turn, reads the open wait when
// readWait is set, and ends the turn answering that wait and asking again.
// Without readWait, ns/op is the writes alone: the new wait's id is known
// without asking, since this is the only writer and ids are assigned in
// order (a wrong guess fails the benchmark, it cannot skew it).
func BenchTurns(b *testing.B, s store.Store, readWait bool) {
	ctx := context.Background()
	ws, agent, workflow := BenchTenant(b, s)
	const sessions = 64
	type conv struct {
		sess store.Session
		wait int64
	}
	convs := make([]conv, sessions)
	for i := range convs {
		if err := SeedPausedSession(ctx, s, ws, agent, workflow, i); err != nil {
			b.Fatal(err)
		}
	}
	all, err := s.PendingWaits(ctx, ws, 0, KindQuestion, time.Now())
	if err != nil || len(all) != sessions {
		b.Fatalf("seeded %d waits: %v", len(all), err)
	}
	for i, w := range all {
		convs[i].sess = store.Session{ID: w.SessionID, WorkspaceID: ws, Identity: w.Identity}
		convs[i].wait = w.ID
	}
	lastWait := all[len(all)-1].ID
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := &convs[i%sessions]
		r, _, err := s.StartTurn(ctx, store.TurnStart{
			Message: store.Message{Role: "user", Text: benchUser},
			Run:     store.Run{WorkspaceID: ws, SessionID: c.sess.ID, WorkflowID: workflow, Version: 1},
		})
		if err != nil {
			b.Fatal(err)
		}
		if readWait {
			w, _, err := s.OpenWait(ctx, ws, c.sess.ID, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			if w.ID != c.wait {
				b.Fatalf("open wait %d, want %d", w.ID, c.wait)
			}
		}
		end := benchPause(r, c.sess, &store.WaitClose{WaitID: c.wait, Status: vocab.WaitAnswered})
		if err := s.EndTurn(ctx, end); err != nil {
			b.Fatal(err)
		}
		lastWait++
		c.wait = lastWait
	}
}

// BenchTurnsParallel runs whole turns (StartTurn, OpenWait, EndTurn) from
// GOMAXPROCS×p goroutines at once, each on a conversation of its own.
func BenchTurnsParallel(b *testing.B, s store.Store, p int) {
	ctx := context.Background()
	ws, agent, workflow := BenchTenant(b, s)
	var next atomic.Int64
	b.SetParallelism(p)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := int(next.Add(1))
		if err := SeedPausedSession(ctx, s, ws, agent, workflow, 1_000_000+i); err != nil {
			b.Error(err)
			return
		}
		waits, err := s.PendingWaits(ctx, ws, 0, KindQuestion, time.Now())
		if err != nil {
			b.Error(err)
			return
		}
		var sess store.Session
		for _, w := range waits {
			if w.Identity == fmt.Sprintf("customer-%06d", 1_000_000+i) {
				sess = store.Session{ID: w.SessionID, WorkspaceID: ws, Identity: w.Identity}
			}
		}
		for pb.Next() {
			r, _, err := s.StartTurn(ctx, store.TurnStart{
				Message: store.Message{Role: "user", Text: benchUser},
				Run:     store.Run{WorkspaceID: ws, SessionID: sess.ID, WorkflowID: workflow, Version: 1},
			})
			if err != nil {
				b.Error(err)
				return
			}
			w, _, err := s.OpenWait(ctx, ws, sess.ID, time.Now())
			if err != nil {
				b.Error(err)
				return
			}
			if err := s.EndTurn(ctx, benchPause(r, sess, &store.WaitClose{WaitID: w.ID, Status: vocab.WaitAnswered})); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchWholeTurns measures a turn's store calls as a turn makes them: one
// TurnState read, StartTurn, then EndTurn answering the wait it read and
// asking again. Conversations have a typical length: after turnsPerConv
// turns one is replaced by a new paused session (outside the timer), so the
// transcripts read stay 2 to 2+2×turnsPerConv messages long however many
// ops run.
func BenchWholeTurns(b *testing.B, s store.Store) {
	const sessions, turnsPerConv = 64, 10
	ctx := context.Background()
	ws, agent, workflow := BenchTenant(b, s)
	type conv struct {
		session int64
		turns   int
	}
	seeded := 0
	seed := func() conv {
		b.Helper()
		sess, err := seedPaused(ctx, s, ws, agent, workflow, seeded)
		if err != nil {
			b.Fatal(err)
		}
		seeded++
		return conv{session: sess.ID}
	}
	convs := make([]conv, sessions)
	for i := range convs {
		convs[i] = seed()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := &convs[i%sessions]
		if c.turns == turnsPerConv {
			b.StopTimer()
			*c = seed()
			b.StartTimer()
		}
		c.turns++
		st, err := s.TurnState(ctx, ws, c.session, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		if !st.HasWait || st.Workflow.ID != workflow || len(st.History) != 2*c.turns {
			b.Fatalf("TurnState: open wait %v, workflow %d, %d messages at turn %d",
				st.HasWait, st.Workflow.ID, len(st.History), c.turns)
		}
		r, _, err := s.StartTurn(ctx, store.TurnStart{
			Message: store.Message{Role: "user", Text: benchUser},
			Run: store.Run{WorkspaceID: ws, SessionID: c.session, WorkflowID: st.Workflow.ID,
				Version: 1, ResumedFromRunID: st.Wait.RunID},
		})
		if err != nil {
			b.Fatal(err)
		}
		end := benchPause(r, st.Session, &store.WaitClose{WaitID: st.Wait.ID, Status: vocab.WaitAnswered})
		if err := s.EndTurn(ctx, end); err != nil {
			b.Fatal(err)
		}
	}
}
