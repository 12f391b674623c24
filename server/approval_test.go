package server

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/wetel/wetel/client"
)

const refundFlow = `{"nodes":[{"id":"start","type":"start"},
{"id":"hold","type":"response","config":{"messageTemplate":"Let me check with a colleague."}},
{"id":"ok","type":"approval","config":{"promptTemplate":"Refund for {{userMessage}}?","saveAs":"decision"}},
{"id":"yes","type":"response","config":{"messageTemplate":"Refunded ({{decision.note}}, by {{decision.decidedBy}})."}},
{"id":"no","type":"response","config":{"messageTemplate":"No refund: {{decision.note}}"}}],
"edges":[{"id":"e1","source":"start","target":"hold"},{"id":"e2","source":"hold","target":"ok"},
{"id":"e3","source":"ok","target":"yes","label":"approved"},{"id":"e4","source":"ok","target":"no","label":"rejected"}]}`

// TestApprovalOverTheAPI: the run waits AWAITING_APPROVAL, pendingApprovals
// shows the prompt, a MEMBER may not decide, 20 owners deciding at once
// get one continuation and 19 CONFLICTs, and the user hears the outcome.
func TestApprovalOverTheAPI(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	agent := publishedAgent(t, ts.c, "refunds", refundFlow)
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": agent}, &s)
	first := send(t, ts, s.StartSession.ID, "order 7")
	if r := first.SendMessage.Runs[0]; r.Status != "AWAITING_APPROVAL" {
		t.Fatalf("turn 1: %+v", r)
	}
	var pending struct {
		PendingApprovals []struct {
			ID, RunID int
			Prompt    string
		}
	}
	do(t, ts.c, `query($s: Int) { pendingApprovals(sessionId: $s) { id runId prompt expiresAt } }`, map[string]any{"s": s.StartSession.ID}, &pending)
	if len(pending.PendingApprovals) != 1 || pending.PendingApprovals[0].Prompt != "Refund for order 7?" {
		t.Fatalf("pending approvals: %+v", pending)
	}
	id := pending.PendingApprovals[0].ID
	const decide = `mutation($id: Int!, $ok: Boolean!) { decideApproval(id: $id, approve: $ok, note: "checked") { runs { status resumedFromRunId } messages { text } } }`

	var created struct{ CreateApiKey struct{ Key string } }
	do(t, ts.c, `mutation { createApiKey(name: "helper", role: MEMBER) { key } }`, nil, &created)
	member := client.New(ts.url, created.CreateApiKey.Key)
	wantCode(t, member, "FORBIDDEN", decide, map[string]any{"id": id, "ok": true})
	// The owners were told, in the app; only an OWNER reads the notices.
	var notes struct {
		Notifications []struct {
			ID    int
			Kind  string
			RunID *int
		}
	}
	do(t, ts.c, `{ notifications(unreadOnly: true) { id kind runId } }`, nil, &notes)
	if len(notes.Notifications) != 1 || notes.Notifications[0].Kind != "APPROVAL" || notes.Notifications[0].RunID == nil ||
		*notes.Notifications[0].RunID != pending.PendingApprovals[0].RunID {
		t.Fatalf("notifications: %+v", notes)
	}
	wantCode(t, member, "FORBIDDEN", `{ notifications { id } }`, nil)
	var marked struct{ MarkNotificationsRead int }
	do(t, ts.c, `mutation($ids: [Int!]!) { markNotificationsRead(ids: $ids) }`, map[string]any{"ids": []int{notes.Notifications[0].ID}}, &marked)
	do(t, ts.c, `{ notifications(unreadOnly: true) { id kind runId } }`, nil, &notes)
	if marked.MarkNotificationsRead != 1 || len(notes.Notifications) != 0 {
		t.Errorf("after marking read: %d marked, %+v unread", marked.MarkNotificationsRead, notes)
	}

	var mu sync.Mutex
	var wins []string
	codes := map[string]int{}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out struct {
				DecideApproval struct {
					Runs     []struct{ Status string }
					Messages []struct{ Text string }
				}
			}
			err := ts.c.Do(context.Background(), decide, map[string]any{"id": id, "ok": true}, &out)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				codes[err.(client.Errors).Code()]++
				return
			}
			wins = append(wins, out.DecideApproval.Messages[0].Text)
		}()
	}
	wg.Wait()
	if len(wins) != 1 || codes["CONFLICT"] != 19 || !strings.HasPrefix(wins[0], "Refunded (checked, by ") {
		t.Fatalf("decisions: won %q, refused %v", wins, codes)
	}
	do(t, ts.c, `query($s: Int) { pendingApprovals(sessionId: $s) { id } }`, map[string]any{"s": s.StartSession.ID}, &pending)
	if len(pending.PendingApprovals) != 0 {
		t.Errorf("still pending after the decision: %+v", pending)
	}
	wantCode(t, ts.c, "NOT_FOUND", decide, map[string]any{"id": 99999, "ok": false})
}
