package server

import (
	"strings"
	"testing"

	"github.com/wetel/wetel/store/postgres/pgtest"
)

type turnOut struct {
	SendMessage struct {
		UserMessage *struct{ ID int }
		Runs        []struct {
			ID               int
			Status           string
			ResumedFromRunID *int
		}
		Messages []struct {
			ID           int
			Text         string
			TurnComplete bool
		}
	}
}

const sendMessage = `mutation($s: Int!, $t: String!) { sendMessage(sessionId: $s, text: $t) {
	userMessage { id } runs { id status resumedFromRunId } messages { id text turnComplete } } }`

func send(t *testing.T, ts *testServer, session int, text string) turnOut {
	t.Helper()
	var out turnOut
	do(t, ts.c, sendMessage, map[string]any{"s": session, "t": text}, &out)
	return out
}

// startDemoSession opens a session with the bootstrap's demo agent.
func startDemoSession(t *testing.T, ts *testServer) int {
	t.Helper()
	var agents struct {
		Agents []struct {
			ID   int
			Name string
		}
	}
	do(t, ts.c, `{ agents { id name } }`, nil, &agents)
	if len(agents.Agents) != 1 || agents.Agents[0].Name != "Help desk" {
		t.Fatalf("agents after a first start: %+v", agents.Agents)
	}
	var s struct{ StartSession struct{ ID int } }
	do(t, ts.c, `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`, map[string]any{"a": agents.Agents[0].ID}, &s)
	return s.StartSession.ID
}

// TestDemoConversation is the first conversation a fresh server has: the
// demo agent asks with await_reply, the reply resumes the paused run.
func TestDemoConversation(t *testing.T) {
	t.Parallel()
	demoConversation(t, startServer(t, Config{}))
}

// TestDemoConversationPostgres is the same conversation with the server on
// PostgreSQL (WETEL_TEST_DATABASE_URL).
func TestDemoConversationPostgres(t *testing.T) {
	t.Parallel()
	demoConversation(t, startServer(t, Config{DatabaseURL: pgtest.URL(t)}))
}

func demoConversation(t *testing.T, ts *testServer) {
	var me struct {
		Me struct{ WorkspaceName, Role string }
	}
	do(t, ts.c, `{ me { workspaceName role } }`, nil, &me)
	if me.Me.WorkspaceName != "Demo" || me.Me.Role != "OWNER" {
		t.Fatalf("me = %+v", me.Me)
	}
	session := startDemoSession(t, ts)

	first := send(t, ts, session, "hello")
	if len(first.SendMessage.Runs) != 1 || first.SendMessage.Runs[0].Status != "AWAITING_INPUT" {
		t.Fatalf("turn 1 runs: %+v", first.SendMessage.Runs)
	}
	q := first.SendMessage.Messages
	if len(q) != 1 || !q[0].TurnComplete || !strings.Contains(q[0].Text, "2. Return an item\n") {
		t.Fatalf("turn 1 question: %+v", q)
	}

	var pending struct {
		PendingAwaitReplies []struct {
			NodeID, SaveAs, MatchMode string
			Options                   []struct {
				Slot      int
				ID, Label string
			}
			ExpiresAt *string
		}
	}
	do(t, ts.c, `query($s: Int) { pendingAwaitReplies(sessionId: $s) { nodeId saveAs matchMode options { slot id label } expiresAt } }`,
		map[string]any{"s": session}, &pending)
	if len(pending.PendingAwaitReplies) != 1 {
		t.Fatalf("pending: %+v", pending)
	}
	p := pending.PendingAwaitReplies[0]
	if p.NodeID != "ask" || p.SaveAs != "topic" || p.MatchMode != "options" || len(p.Options) != 3 || p.Options[1].ID != "return" || p.ExpiresAt == nil {
		t.Fatalf("pending wait: %+v", p)
	}

	second := send(t, ts, session, "2")
	runs := second.SendMessage.Runs
	if len(runs) != 1 || runs[0].Status != "COMPLETED" || runs[0].ResumedFromRunID == nil || *runs[0].ResumedFromRunID != first.SendMessage.Runs[0].ID {
		t.Fatalf("turn 2 runs: %+v", runs)
	}
	if m := second.SendMessage.Messages; len(m) != 1 || !strings.HasPrefix(m[0].Text, "You chose Return an item.") || !m[0].TurnComplete {
		t.Fatalf("turn 2 messages: %+v", m)
	}
	do(t, ts.c, `query($s: Int) { pendingAwaitReplies(sessionId: $s) { nodeId } }`, map[string]any{"s": session}, &pending)
	if len(pending.PendingAwaitReplies) != 0 {
		t.Fatalf("the answered wait is still pending: %+v", pending)
	}

	var list struct {
		WorkflowRuns []struct {
			ID        int
			Status    string
			NodeTrace []struct{ NodeID, Status string }
		}
	}
	do(t, ts.c, `query($s: Int) { workflowRuns(sessionId: $s) { id status nodeTrace } }`, map[string]any{"s": session}, &list)
	if len(list.WorkflowRuns) != 2 || list.WorkflowRuns[0].ID != runs[0].ID || list.WorkflowRuns[1].Status != "AWAITING_INPUT" {
		t.Fatalf("workflowRuns newest first: %+v", list.WorkflowRuns)
	}
	if tr := list.WorkflowRuns[0].NodeTrace; len(tr) == 0 || tr[0].NodeID != "route" {
		t.Fatalf("the resumed run's trace starts at %+v, want the switch after the question", tr)
	}
	var msgs struct{ Messages []struct{ Role, Text string } }
	do(t, ts.c, `query($s: Int!) { messages(sessionId: $s) { role text } }`, map[string]any{"s": session}, &msgs)
	if len(msgs.Messages) != 4 || msgs.Messages[2].Text != "2" {
		t.Fatalf("transcript: %+v", msgs.Messages)
	}
}
