package gql

import (
	"encoding/json"
	"fmt"

	"github.com/wetel/wetel/node/awaitreply"
	"github.com/wetel/wetel/store"
)

// Ids are int64 in the store and Int in the API; ids are assigned from 1 up
// and never come near 2^31 in one database, and a larger one would not be
// silently cut: GraphQL's Int marshalling refuses it.

func optID(id int64) *int {
	if id == 0 {
		return nil
	}
	v := int(id)
	return &v
}

func orEmptyJSON(b json.RawMessage, empty string) JSON {
	if len(b) == 0 {
		return JSON(empty)
	}
	return JSON(b)
}

func toWorkflow(w store.Workflow) *Workflow {
	notify := NotifyOnFailureNone
	if w.NotifyOnFailure == string(NotifyOnFailureOwners) {
		notify = NotifyOnFailureOwners
	}
	return &Workflow{ID: int(w.ID), Name: w.Name, Description: w.Description, Draft: orEmptyJSON(w.Draft, `{"nodes":[],"edges":[]}`),
		PublishedVersion: w.PublishedVersion, FailureResponse: w.FailureResponse, NotifyOnFailure: notify,
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

func toVersion(v store.WorkflowVersion) *WorkflowVersion {
	return &WorkflowVersion{WorkflowID: int(v.WorkflowID), Number: v.Number, Graph: orEmptyJSON(v.Graph, `{}`),
		PublishedAt: v.PublishedAt, PublishedBy: v.PublishedBy}
}

func toAgent(a store.Agent) *Agent {
	return &Agent{ID: int(a.ID), Name: a.Name, Persona: a.Persona, DefaultModel: a.DefaultModel,
		WorkflowID: optID(a.WorkflowID), CreatedAt: a.CreatedAt}
}

func toSession(s store.Session) *Session {
	out := &Session{ID: int(s.ID), AgentID: int(s.AgentID), Status: SessionStatus(s.Status),
		ClientExternalID: s.ClientExternalID, Channel: s.Channel, CreatedAt: s.CreatedAt, EndedAt: s.EndedAt}
	if s.Identity != "" {
		id := s.Identity
		out.Identity = &id
	}
	out.ParentSessionID = optID(s.ParentSessionID)
	return out
}

func toMessage(m store.Message) *Message {
	return &Message{ID: int(m.ID), SessionID: int(m.SessionID), Role: m.Role, Text: m.Text, Mood: m.Mood,
		RunID: optID(m.RunID), TurnComplete: m.TurnComplete, CreatedAt: m.CreatedAt}
}

func toRun(r store.Run) *WorkflowRun {
	return &WorkflowRun{ID: int(r.ID), SessionID: int(r.SessionID), WorkflowID: optID(r.WorkflowID), Version: r.Version,
		Status: RunStatus(r.Status), ResumedFromRunID: optID(r.ResumedFromRunID), NodeTrace: orEmptyJSON(r.NodeTrace, `[]`),
		Error: r.Error, ErrorCode: r.ErrorCode, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt}
}

// toWait shows an await_reply wait: its state says what the question
// saves and the exact options it offered (seed 000's pendingAwaitReplies).
func toWait(w store.Wait) (PendingAwaitReply, error) {
	st, err := awaitreply.DecodeState(w.State)
	if err != nil {
		return PendingAwaitReply{}, fmt.Errorf("wait %d: %w", w.ID, err)
	}
	out := PendingAwaitReply{ID: int(w.ID), SessionID: int(w.SessionID), RunID: int(w.RunID), NodeID: w.NodeID,
		SaveAs: st.SaveAs, MatchMode: st.MatchMode, Options: make([]AwaitReplyOption, len(st.Options)), CreatedAt: w.CreatedAt}
	for i, o := range st.Options {
		out.Options[i] = AwaitReplyOption{Slot: o.Slot, ID: o.ID, Label: o.Label}
	}
	if !w.ExpiresAt.IsZero() {
		t := w.ExpiresAt
		out.ExpiresAt = &t
	}
	return out, nil
}

func toAPIKey(k store.APIKey) *APIKey {
	return &APIKey{ID: int(k.ID), Name: k.Name, Role: Role(k.Role), Prefix: k.Prefix, CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt}
}

func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

func mapList[S, T any](in []S, f func(S) *T) []T {
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = *f(v)
	}
	return out
}

func toNotification(n store.Notification) *Notification {
	return &Notification{ID: int(n.ID), Kind: n.Kind, Text: n.Text, WorkflowID: optID(n.WorkflowID),
		SessionID: optID(n.SessionID), RunID: optID(n.RunID), CreatedAt: n.CreatedAt, ReadAt: n.ReadAt}
}
