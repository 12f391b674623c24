package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/trace"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

// maxLoggedError bounds the error text of one log line: the run's stored
// error is already bounded, but a log line is read by people.
const maxLoggedError = 512

// logTurn writes what an operator needs from a finished turn: one WARN line
// per failed run (run, workflow, node, error class, redacted message), and
// at DEBUG one line for the turn itself. Nothing here is a secret: the
// run's error was redacted with the run's own secrets when it was stored,
// and is redacted again for recognisable ones before it is logged.
func (s *Server) logTurn(ctx context.Context, ws, sessionID int64, res turn.TurnResult) {
	for _, r := range res.Runs {
		if r.Status != vocab.RunFailed {
			continue
		}
		nodeID, nodeType := failedNode(r.NodeTrace)
		s.log.WarnContext(ctx, "run failed", "run", r.ID, "workflow", r.WorkflowID, "version", r.Version,
			"workspace", ws, "session", sessionID, "node", nodeID, "nodeType", nodeType,
			"errorClass", r.ErrorCode, "error", logSafe(r.Error))
	}
	if !s.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	var runs strings.Builder
	for i, r := range res.Runs {
		if i > 0 {
			runs.WriteByte(' ')
		}
		runs.WriteString(strconv.FormatInt(r.ID, 10))
		runs.WriteByte(':')
		runs.WriteString(r.Status)
	}
	attrs := []any{"workspace", ws, "session", sessionID, "message", res.UserMessage.ID, "runs", runs.String(), "replies", len(res.Messages)}
	if n := len(res.Runs); n > 0 {
		first, last := res.Runs[0], res.Runs[n-1]
		attrs = append(attrs, "workflow", first.WorkflowID)
		if last.FinishedAt != nil {
			attrs = append(attrs, "ms", last.FinishedAt.Sub(first.StartedAt).Milliseconds())
		}
	}
	s.log.DebugContext(ctx, "turn", attrs...)
}

// failedNode is the node a failed run stopped at: the last row of its
// trace that failed it (FAILED, or the budget or visit-limit refusal).
func failedNode(trace json.RawMessage) (id, typ string) {
	var rows []struct {
		NodeID   string `json:"nodeId"`
		NodeType string `json:"nodeType"`
		Status   string `json:"status"`
	}
	if json.Unmarshal(trace, &rows) != nil {
		return "", ""
	}
	for i := len(rows) - 1; i >= 0; i-- {
		switch rows[i].Status {
		case vocab.TraceFailed, vocab.TraceBudgetExceeded, vocab.TraceVisitLimitReached:
			return rows[i].NodeID, rows[i].NodeType
		}
	}
	return "", ""
}

// logSafe redacts recognisable secrets and bounds the text.
func logSafe(msg string) string {
	msg = failure.Redact(msg)
	if len(msg) > maxLoggedError {
		cut := maxLoggedError
		for cut > 0 && !utf8Start(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// logRefused is the outbound client's report of a call the SSRF guard
// refused: the URL without its user info and query (where a workflow may
// put a credential the log cannot recognise), the host and why.
// With tracing on it names the span of the node that made the call.
func (s *Server) logRefused(ctx context.Context, e *outbound.RefusedError) {
	attrs := []any{"url", withoutQuery(e.URL), "host", e.Host, "reason", logSafe(e.Reason)}
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		attrs = append(attrs, "traceId", sc.TraceID().String(), "spanId", sc.SpanID().String())
	}
	s.log.WarnContext(ctx, "outbound call refused", attrs...)
}

// withoutQuery drops a URL's user info, query and fragment; text that does
// not parse is redacted and bounded instead.
func withoutQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return logSafe(raw)
	}
	u.User = nil
	if u.RawQuery != "" || u.ForceQuery {
		u.RawQuery, u.ForceQuery = "…", false
	}
	u.Fragment, u.RawFragment = "", ""
	return logSafe(u.String())
}
