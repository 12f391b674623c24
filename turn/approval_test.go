package turn_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/node/approval"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

const refundGraph = `{"nodes":[{"id":"start","type":"start"},
{"id":"note","type":"set_variable","config":{"assignments":[{"var":"amount","value":"40"}]}},
{"id":"wait","type":"response","config":{"messageTemplate":"Let me check with a colleague."}},
{"id":"ok","type":"approval","config":{"promptTemplate":"Refund {{amount}} for {{userMessage}}?","saveAs":"decision","expiresAfterSeconds":3600}},
{"id":"yes","type":"response","config":{"messageTemplate":"Refunded {{amount}} ({{decision.note}}, by {{decision.decidedBy}})."}},
{"id":"no","type":"response","config":{"messageTemplate":"Sorry, no refund: {{decision.note}}"}}],
"edges":[{"id":"e1","source":"start","target":"note"},{"id":"e2","source":"note","target":"wait"},{"id":"e3","source":"wait","target":"ok"},
{"id":"e4","source":"ok","target":"yes","label":"approved"},{"id":"e5","source":"ok","target":"no","label":"rejected"}]}`

// The approval pauses the run AWAITING_APPROVAL; a message meanwhile
// starts a fresh run and leaves it pending; the decision's run continues
// down approved with the decision in saveAs.
func TestApprovalDecided(t *testing.T) {
	t.Parallel()
	f := newFixture(t, refundGraph)
	f.svc.Mock = false
	ctx := context.Background()
	s := f.session(t)
	first := f.send(t, s, "order 7")
	if r := first.Runs[0]; r.Status != vocab.RunAwaitingApproval || len(first.Messages) != 1 {
		t.Fatalf("turn 1: %+v, %+v", r, first.Messages)
	}
	pending, err := f.st.PendingWaits(ctx, f.ws, 0, approval.Kind, f.clock.Now())
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending approvals: %+v, %v", pending, err)
	}
	if st, _ := approval.DecodeState(pending[0].State); st.Prompt != "Refund 40 for order 7?" {
		t.Fatalf("the approver's prompt: %q", st.Prompt)
	}
	// A message meanwhile starts afresh (and pauses on a second approval).
	if r := f.send(t, s, "hello?").Runs[0]; r.ResumedFromRunID != 0 {
		t.Fatalf("a message while the approval waits resumed it: %+v", r)
	}
	res, err := f.svc.Decide(ctx, f.ws, pending[0].ID, node.Decision{Approved: true, Note: "fine", DecidedBy: "owner-key-1"})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Runs[0]; r.Status != vocab.RunCompleted || r.ResumedFromRunID != first.Runs[0].ID {
		t.Fatalf("the decision's run: %+v", r)
	}
	if len(res.Messages) != 1 || res.Messages[0].Text != "Refunded 40 (fine, by owner-key-1)." {
		t.Fatalf("the decision's run said %+v", res.Messages)
	}
	if _, err := f.svc.Decide(ctx, f.ws, pending[0].ID, node.Decision{Approved: false}); !errors.Is(err, turn.ErrDecided) {
		t.Errorf("a second decision: %v, want ErrDecided", err)
	}
}

// 50 decisions of one approval at once: exactly one wins, the rest are
// refused and leave nothing behind.
func TestApprovalDecidedOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, refundGraph)
	ctx := context.Background()
	s := f.session(t)
	f.send(t, s, "order 7")
	pending, err := f.st.PendingWaits(ctx, f.ws, s.ID, approval.Kind, f.clock.Now())
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending: %+v, %v", pending, err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, refused := 0, 0
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.svc.Decide(ctx, f.ws, pending[0].ID, node.Decision{Approved: i%2 == 0})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, turn.ErrDecided):
				refused++
			default:
				t.Errorf("decision %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if won != 1 || refused != 49 {
		t.Fatalf("%d decisions won and %d were refused, want 1 and 49", won, refused)
	}
	runs, _ := f.st.RunsBySession(ctx, f.ws, s.ID)
	if len(runs) != 2 {
		t.Errorf("%d runs, want the paused one and one continuation", len(runs))
	}
}

// A decision after the approval's expiry is refused; a decision on a
// question for the user is not a decision.
func TestApprovalRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t, refundGraph)
	ctx := context.Background()
	s := f.session(t)
	f.send(t, s, "order 7")
	pending, _ := f.st.PendingWaits(ctx, f.ws, s.ID, approval.Kind, f.clock.Now())
	f.clock.Advance(time.Hour)
	if _, err := f.svc.Decide(ctx, f.ws, pending[0].ID, node.Decision{Approved: true}); !errors.Is(err, turn.ErrDecided) {
		t.Errorf("a decision after expiry: %v", err)
	}
	q := newFixture(t, askRole)
	qs := q.session(t)
	q.send(t, qs, "hi")
	open, _ := q.st.PendingWaits(ctx, q.ws, qs.ID, "await_reply", q.clock.Now())
	if _, err := q.svc.Decide(ctx, q.ws, open[0].ID, node.Decision{Approved: true}); !errors.Is(err, turn.ErrNotADecision) {
		t.Errorf("deciding a question: %v", err)
	}
}
