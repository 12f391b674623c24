// Package storetest is the conformance suite every store.Store driver runs,
// so the embedded and the server database behave alike.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/vocab"
)

// Run checks a driver. open must return a new, empty store on every call
// (a fresh file, a fresh schema): most subtests share one and keep to their
// own workspaces, but those that touch every workspace (RecoverRuns,
// CountOpenWaits, ClaimOutbound, PruneEvents) or end the store (Close) open
// their own. The suite closes every store it opens.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	shared := open(t)
	t.Cleanup(func() { _ = shared.Close() })
	e := &env{shared: shared, open: open}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.fn(t, e)
		})
	}
}

// cases is every behaviour the contract promises.
var cases = []struct {
	name string
	fn   func(*testing.T, *env)
}{
	{"Workspaces", testWorkspaces},
	{"CreateFirstWorkspace", testCreateFirstWorkspace},
	{"AgreeSetting", testAgreeSetting},
	{"ModelConfig", testModelConfig},
	{"ModelUsage", testModelUsage},
	{"WorkflowRoundTrip", testWorkflowRoundTrip},
	{"SaveDraft", testSaveDraft},
	{"Publish", testPublish},
	{"AgentRoundTrip", testAgentRoundTrip},
	{"SessionRoundTrip", testSessionRoundTrip},
	{"SessionParent", testSessionParent},
	{"CrossWorkspace", testCrossWorkspace},
	{"CreateAcrossWorkspaces", testCreateAcrossWorkspaces},
	{"IDsIncrease", testIDsIncrease},
	{"StartTurn", testStartTurn},
	{"EndTurn", testEndTurn},
	{"EndTurnStale", testEndTurnStale},
	{"EndTurnMessageIDs", testEndTurnMessageIDs},
	{"EndTurnRollsBack", testEndTurnRollsBack},
	{"EndTurnEndsSession", testEndTurnEndsSession},
	{"OpenWaitRace", testOpenWaitRace},
	{"ConcurrentFailuresIsolated", testConcurrentFailuresIsolated},
	{"OpenWait", testOpenWait},
	{"OpenWaitExpires", testOpenWaitExpires},
	{"PendingWaits", testPendingWaits},
	{"Notifications", testNotifications},
	{"WaitKinds", testWaitKinds},
	{"ClaimWait", testClaimWait},
	{"PauseInEndedSession", testPauseInEndedSession},
	{"ClaimRacesSessionChange", testClaimRacesSessionChange},
	{"TurnState", testTurnState},
	{"TurnStateNoWorkflow", testTurnStateNoWorkflow},
	{"TurnStateSince", testTurnStateSince},
	{"TurnStateIsolation", testTurnStateIsolation},
	{"SetIdentity", testSetIdentity},
	{"EndSession", testEndSession},
	{"Messages", testMessages},
	{"AppendMessage", testAppendMessage},
	{"RunsBySession", testRunsBySession},
	{"RecoverRuns", testRecoverRuns},
	{"CountOpenWaits", testCountOpenWaits},
	{"Times", testTimes},
	{"ConcurrentTurns", testConcurrentTurns},
	{"APIKeys", testAPIKeys},
	{"TouchAPIKey", testTouchAPIKey},
	{"WorkflowListing", testWorkflowListing},
	{"AgentListing", testAgentListing},
	{"SessionPages", testSessionPages},
	{"RunPages", testRunPages},
	{"ListLimits", testListLimits},
	{"CustomActions", testCustomActions},
	{"McpConnectors", testMcpConnectors},
	{"OutboundQueue", testOutboundQueue},
	{"ClaimOutbound", testClaimOutbound},
	{"ClaimOutboundRace", testClaimOutboundRace},
	{"ClaimOutboundSkips", testClaimOutboundSkips},
	{"OutboundInputs", testOutboundInputs},
	{"Events", testEvents},
	{"EventsConcurrent", testEventsConcurrent},
	{"PruneEvents", testPruneEvents},
	{"Artifacts", testArtifacts},
	{"InvalidInputs", testInvalidInputs},
	{"Close", testClose},
}

// env is what every subtest gets: the shared store and a way to a fresh one.
type env struct {
	shared store.Store
	open   func(t *testing.T) store.Store
}

// fresh opens a store of the subtest's own, closed when it ends.
func (e *env) fresh(t *testing.T) store.Store {
	t.Helper()
	s := e.open(t)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// tenant is a workspace with a published workflow and an agent on it.
type tenant struct {
	s        store.Store
	ws       int64
	workflow int64
	agent    int64
}

// newTenant creates a workspace of its own in s.
func newTenant(t *testing.T, s store.Store) *tenant {
	t.Helper()
	ctx := t.Context()
	w, err := s.CreateWorkspace(ctx, "ws "+t.Name())
	must(t, err)
	wf, err := s.CreateWorkflow(ctx, store.Workflow{WorkspaceID: w.ID, Name: "flow",
		Draft: json.RawMessage(`{"nodes":[]}`), NotifyOnFailure: "NONE"})
	must(t, err)
	_, err = s.Publish(ctx, w.ID, wf.ID, json.RawMessage(`{"nodes":[]}`), "tester")
	must(t, err)
	a, err := s.CreateAgent(ctx, store.Agent{WorkspaceID: w.ID, Name: "agent", WorkflowID: wf.ID})
	must(t, err)
	return &tenant{s: s, ws: w.ID, workflow: wf.ID, agent: a.ID}
}

// session opens a session with identity.
func (tn *tenant) session(t *testing.T, identity string) store.Session {
	t.Helper()
	ss, err := tn.s.CreateSession(t.Context(), store.Session{WorkspaceID: tn.ws, AgentID: tn.agent,
		Identity: identity, Channel: "web", ClientExternalID: "client-1"})
	must(t, err)
	return ss
}

// start starts a turn in session with a user message.
func (tn *tenant) start(t *testing.T, session int64, text string) (store.Run, store.Message) {
	t.Helper()
	r, m, err := tn.s.StartTurn(t.Context(), tn.turnStart(session, text))
	must(t, err)
	return r, m
}

func (tn *tenant) turnStart(session int64, text string) store.TurnStart {
	return store.TurnStart{
		Message: store.Message{WorkspaceID: tn.ws, SessionID: session, Role: "user", Text: text},
		Run:     store.Run{WorkspaceID: tn.ws, SessionID: session, WorkflowID: tn.workflow, Version: 1},
	}
}

// pause ends run as AWAITING_INPUT with a question that expires at expires.
func (tn *tenant) pause(t *testing.T, run store.Run, expires time.Time) {
	t.Helper()
	must(t, tn.s.EndTurn(t.Context(), pauseEnd(run, expires, nil)))
}

// pauseEnd is an EndTurn that asks a question, closing closeWait if set.
func pauseEnd(run store.Run, expires time.Time, closeWait *store.WaitClose) store.TurnEnd {
	run.Status = vocab.RunAwaitingInput
	return store.TurnEnd{
		Run:       run,
		Messages:  []store.Message{{Role: "assistant", Text: "Which size?", TurnComplete: true}},
		CloseWait: closeWait,
		Pause: &store.Pause{
			Wait: store.Wait{NodeID: "ask", Kind: KindQuestion, ResumeOn: vocab.ResumeOnReply,
				State:     json.RawMessage(`{"saveAs":"size","matchMode":"options","options":[[1,"s","Small"],[2,"l","Large"]]}`),
				ExpiresAt: expires},
			Snapshot: json.RawMessage(`{"vars":{"n":1}}`),
		},
	}
}

// now is a millisecond-exact current time, so round trips compare equal.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantErr fails unless err is target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: got error %v, want %v", what, err, target)
	}
}

// sameTime reports whether a and b are within a millisecond and b is UTC.
func sameTime(a, b time.Time) bool {
	d := a.Sub(b)
	return d < time.Millisecond && d > -time.Millisecond && b.Location() == time.UTC
}

// openWaitID returns the session's open wait id, or 0 when there is none.
func openWaitID(ctx context.Context, t *testing.T, s store.Store, ws, session int64) int64 {
	t.Helper()
	w, _, err := s.OpenWait(ctx, ws, session, now())
	if errors.Is(err, store.ErrNotFound) {
		return 0
	}
	must(t, err)
	return w.ID
}

// str shows v for a failure message, following pointers (a *time.Time
// printed by %v would be an address).
func str(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(b)
}

// wantIs is errors.Is, for conditions.
func wantIs(err, target error) bool { return errors.Is(err, target) }
