package server

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/events"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
)

// Event types published to a session's subscribers (PLATFORM §4).
const (
	evTurnComplete = "TurnComplete"
	// evDropped stands in the stored log for an event the hub could not
	// write (its queue was full); live subscribers had it.
	evDropped = "Dropped"
)

// live forwards the events a run emits while it runs. Messages and
// RunFinished wait for the turn's end (publishTurn): a message event then
// carries the id of the stored message, and no client ever sees a message
// that a crash could still lose.
func (s *Server) live(ws, sessionID int64, e engine.Event) {
	s.metrics.observe(e)
	var payload map[string]any
	switch e.Kind {
	case engine.EventRunStarted:
		payload = map[string]any{"runId": e.RunID}
	case engine.EventNodeExecuting:
		payload = map[string]any{"runId": e.RunID, "nodeId": e.NodeID, "label": e.Label, "type": e.NodeType}
	case engine.EventNodeCompleted:
		payload = map[string]any{"runId": e.RunID, "nodeId": e.NodeID, "status": e.Status}
	case engine.EventNodeFailed:
		payload = map[string]any{"runId": e.RunID, "nodeId": e.NodeID, "errorCode": e.ErrorCode}
	case engine.EventMessageChunk:
		// A streamed piece goes out at once (PLATFORM §4: isFinal false);
		// the whole message follows with the turn's end, as every message.
		s.publish(context.Background(), ws, sessionID, string(engine.EventMessage), map[string]any{
			"runId": e.RunID, "nodeId": e.NodeID, "text": e.Message.Text, "isFinal": false, "turnComplete": false})
		return
	default:
		return
	}
	s.publish(context.Background(), ws, sessionID, string(e.Kind), payload)
}

// publishTurn sends what a finished turn said, each run's end, and the
// TurnComplete that closes every turn, even one that said nothing.
func (s *Server) publishTurn(ctx context.Context, ws, sessionID int64, res turn.TurnResult) {
	s.metrics.turn(res)
	s.logTurn(ctx, ws, sessionID, res)
	for _, r := range res.Runs {
		for _, m := range res.Messages {
			if m.RunID != r.ID {
				continue
			}
			s.publish(ctx, ws, sessionID, string(engine.EventMessage), map[string]any{
				"runId": r.ID, "messageId": m.ID, "text": m.Text, "mood": m.Mood, "isFinal": true, "turnComplete": m.TurnComplete})
		}
		s.publish(ctx, ws, sessionID, string(engine.EventRunFinished), map[string]any{"runId": r.ID, "status": r.Status})
	}
	s.publish(ctx, ws, sessionID, evTurnComplete, map[string]any{})
}

func (s *Server) publish(ctx context.Context, ws, sessionID int64, typ string, payload map[string]any) {
	if _, err := s.hub.Publish(ctx, ws, sessionID, typ, payload); err != nil {
		s.log.WarnContext(ctx, "publishing an event", "session", sessionID, "type", typ, "err", err)
	}
}

// eventLog stores the hub's events in the store, so a client reconnecting
// after a restart (or to another replica) is replayed what it missed.
type eventLog struct{ s *Server }

var _ events.Log = eventLog{}

// LastSeq is the session's highest stored seq.
func (l eventLog) LastSeq(ctx context.Context, ws, sessionID int64) (int64, error) {
	return l.s.store.LastEventSeq(ctx, ws, sessionID)
}

// Append stores a batch, one session at a time. The store numbers what it
// appends after its last seq, which the hub's numbering continues, so a
// batch retried after a partial write skips what is already stored.
func (l eventLog) Append(ctx context.Context, evs []events.Event) error {
	for len(evs) > 0 {
		n := 1
		for n < len(evs) && evs[n].WorkspaceID == evs[0].WorkspaceID && evs[n].SessionID == evs[0].SessionID {
			n++
		}
		if err := l.appendSession(ctx, evs[:n]); err != nil {
			return err
		}
		evs = evs[n:]
	}
	return nil
}

func (l eventLog) appendSession(ctx context.Context, evs []events.Event) error {
	ws, session := evs[0].WorkspaceID, evs[0].SessionID
	last, err := l.s.store.LastEventSeq(ctx, ws, session)
	if errors.Is(err, store.ErrNotFound) {
		return nil // the session is gone: nothing to keep, and retrying would stall every later event
	}
	if err != nil {
		return err
	}
	rows := make([]store.Event, 0, len(evs))
	for _, e := range evs {
		if e.Seq <= last+int64(len(rows)) {
			continue // stored by an earlier, partly written attempt
		}
		// The store numbers what it appends after its last seq. Events
		// the hub dropped from a full queue leave a gap; a "Dropped"
		// event holds each place, so the numbers stay the hub's and a
		// replay tells the client what it cannot have.
		for next := last + 1 + int64(len(rows)); next < e.Seq; next++ {
			rows = append(rows, store.Event{Type: evDropped, Payload: json.RawMessage(`{}`), CreatedAt: e.At})
		}
		rows = append(rows, store.Event{Type: e.Type, Payload: e.Payload, CreatedAt: e.At})
	}
	if len(rows) == 0 {
		return nil
	}
	_, err = l.s.store.AppendEvents(ctx, ws, session, rows)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	return err
}

// After reads stored events for a replay.
func (l eventLog) After(ctx context.Context, ws, sessionID, after int64, limit int) ([]events.Event, error) {
	rows, err := l.s.store.EventsAfter(ctx, ws, sessionID, after, min(limit, store.MaxEventLimit))
	if err != nil {
		return nil, err
	}
	out := make([]events.Event, len(rows))
	for i, r := range rows {
		out[i] = events.Event{WorkspaceID: r.WorkspaceID, SessionID: r.SessionID, Seq: r.Seq, Type: r.Type, Payload: r.Payload, At: r.CreatedAt}
	}
	return out, nil
}
