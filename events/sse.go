package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// ServeSSE streams the session's events as Server-Sent Events
// (GET /api/sessions/{id}/events, PLATFORM §4). The caller has checked that
// the session belongs to workspace ws. A client resumes after the seq in
// the Last-Event-ID header (sent by EventSource when it reconnects) or in
// the afterSeq query parameter. Each event is one frame:
//
//	id: <seq>
//	event: <Type>
//	data: <payload JSON>
//
// A ": keepalive" comment is sent every Options.KeepAlive so proxies keep
// the connection open. The stream ends when the client goes away, or with
// an "event: lagged" frame when the client fell behind; it then reconnects
// and resumes from its last seq.
func ServeSSE(w http.ResponseWriter, r *http.Request, h *Hub, ws, sessionID int64) {
	after, err := resumeSeq(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	sub, err := h.Subscribe(r.Context(), ws, sessionID, after)
	if err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, ErrClosed) {
			status = http.StatusServiceUnavailable
		}
		h.logger.WarnContext(r.Context(), "events: SSE subscribe failed", "sessionId", sessionID, "err", err)
		http.Error(w, "subscribing to session events failed", status)
		return
	}
	defer sub.Close()

	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no") // nginx would otherwise hold frames back
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if rc.Flush() != nil {
		return // a writer that cannot flush cannot stream
	}
	keepAlive := h.clock.NewTicker(h.opts.KeepAlive)
	defer keepAlive.Stop()
	last := after
	for {
		var frame []byte
		select {
		case ev, ok := <-sub.C:
			if !ok {
				if errors.Is(sub.Err(), ErrLagged) {
					// data is required: a browser ignores an event without it.
					_, _ = fmt.Fprintf(w, "event: lagged\ndata: {\"afterSeq\":%d}\n\n", last)
					_ = rc.Flush()
				}
				return
			}
			frame, last = appendFrame(nil, ev), ev.Seq
		case <-keepAlive.C():
			frame = []byte(": keepalive\n\n")
		case <-r.Context().Done():
			return
		}
		if _, err := w.Write(frame); err != nil || rc.Flush() != nil {
			return // the client went away
		}
	}
}

// resumeSeq reads the seq to resume after. Last-Event-ID wins over
// afterSeq: the URL keeps its afterSeq across EventSource's automatic
// reconnects, while the header carries the latest seq the client saw.
func resumeSeq(r *http.Request) (int64, error) {
	name, raw := "Last-Event-ID", r.Header.Get("Last-Event-ID")
	if raw == "" {
		name, raw = "afterSeq", r.URL.Query().Get("afterSeq")
	}
	if raw == "" {
		return 0, nil
	}
	seq, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || seq < 0 {
		return 0, fmt.Errorf("invalid %s %q: want a non-negative integer seq", name, raw)
	}
	return seq, nil
}

// appendFrame appends the event's SSE frame, written as one Write.
func appendFrame(b []byte, ev Event) []byte {
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, ev.Seq, 10)
	b = append(b, "\nevent: "...)
	b = append(b, ev.Type...)
	b = append(b, "\ndata: "...)
	b = append(b, oneLine(ev.Payload)...)
	return append(b, "\n\n"...)
}

// oneLine returns the payload as a single line, since a raw line break
// would end the data field early. Compact JSON has none (json.Marshal
// escapes them in strings); a Log may return indented JSON, which is
// compacted, and invalid JSON is sent as a JSON string rather than
// breaking the stream.
func oneLine(payload json.RawMessage) []byte {
	if len(payload) == 0 {
		return []byte("null")
	}
	if !bytes.ContainsAny(payload, "\r\n") {
		return payload
	}
	var buf bytes.Buffer
	if json.Compact(&buf, payload) == nil {
		return buf.Bytes()
	}
	quoted, _ := json.Marshal(string(payload)) // a string always marshals
	return quoted
}
