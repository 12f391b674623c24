package check

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wetel/wetel/store"
)

// invalid is an ErrInvalid naming the field and the rule it breaks.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{store.ErrInvalid}, args...)...)
}

// Name refuses a blank name; what says whose name it is.
func Name(what, name string) error {
	if strings.TrimSpace(name) == "" {
		return invalid("%s name: must not be empty", what)
	}
	return nil
}

// APIKey checks a key before it is stored. The hash must be exactly what
// the lookup will be given, lowercase hex SHA-256, or the key could never
// authenticate.
func APIKey(k *store.APIKey) error {
	if err := Name("api key", k.Name); err != nil {
		return err
	}
	if k.Role != store.RoleOwner && k.Role != store.RoleMember {
		return invalid("api key role %q: want %s or %s", k.Role, store.RoleOwner, store.RoleMember)
	}
	if k.Prefix == "" {
		return invalid("api key prefix: must not be empty")
	}
	return Hash(k.Hash)
}

// Hash refuses anything but 64 lowercase hex digits.
func Hash(h string) error {
	if len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		return invalid("api key hash: want 64 lowercase hex digits (SHA-256), got %d characters", len(h))
	}
	return nil
}

// Method refuses an HTTP method the action and webhook nodes do not send.
func Method(what, m string) error {
	switch m {
	case "GET", "POST", "PUT", "PATCH", "DELETE":
		return nil
	}
	return invalid("%s method %q: want GET, POST, PUT, PATCH or DELETE", what, m)
}

// CustomAction checks an action before it is stored.
func CustomAction(a *store.CustomAction) error {
	if a.ID < 0 {
		return invalid("custom action id %d: must not be negative", a.ID)
	}
	if err := Name("custom action", a.Name); err != nil {
		return err
	}
	if err := Method("custom action", a.Method); err != nil {
		return err
	}
	if a.URL == "" {
		return invalid("custom action url: must not be empty")
	}
	if a.TimeoutMs < 0 {
		return invalid("custom action timeoutMs %d: must not be negative", a.TimeoutMs)
	}
	return nil
}

// McpConnector checks a connector before it is stored: a stdio server needs
// a command to start, an HTTP one a URL to reach.
func McpConnector(c *store.McpConnector) error {
	if c.ID < 0 {
		return invalid("mcp connector id %d: must not be negative", c.ID)
	}
	if err := Name("mcp connector", c.Name); err != nil {
		return err
	}
	switch c.Transport {
	case store.TransportStdio:
		if len(c.Command) == 0 || c.Command[0] == "" {
			return invalid("mcp connector command: a stdio connector needs one")
		}
	case store.TransportHTTP:
		if c.URL == "" {
			return invalid("mcp connector url: an http connector needs one")
		}
	default:
		return invalid("mcp connector transport %q: want %s or %s", c.Transport, store.TransportStdio, store.TransportHTTP)
	}
	if len(c.Tools) > 0 && !json.Valid(c.Tools) {
		return invalid("mcp connector tools: not valid JSON")
	}
	return nil
}

// Outbound checks a request before it is queued.
func Outbound(r *store.OutboundRequest) error {
	if err := Method("outbound request", r.Method); err != nil {
		return err
	}
	if r.URL == "" {
		return invalid("outbound request url: must not be empty")
	}
	return nil
}

// Claim checks ClaimOutbound's lease and limit and returns the limit to use.
func Claim(lease time.Duration, limit int) (int, error) {
	if lease <= 0 {
		return 0, invalid("lease %v: must be positive", lease)
	}
	if limit <= 0 || limit > store.MaxClaimLimit {
		return 0, invalid("limit %d: want 1 to %d", limit, store.MaxClaimLimit)
	}
	return limit, nil
}

// Finish checks FinishOutbound's outcome: a final status takes no next
// attempt, and a retry (PENDING) must say when.
func Finish(status string, next *time.Time) error {
	switch status {
	case store.OutboundSent, store.OutboundFailed:
		if next != nil {
			return invalid("nextAttemptAt: only a PENDING request is retried")
		}
	case store.OutboundPending:
		if next == nil || next.IsZero() {
			return invalid("nextAttemptAt: a PENDING request needs one")
		}
	default:
		return invalid("outbound status %q: want %s, %s or %s", status,
			store.OutboundPending, store.OutboundSent, store.OutboundFailed)
	}
	return nil
}

// Events checks events to append to session of ws: each has a type, and
// one that names another workspace or session reads as ErrNotFound, as any
// foreign id does.
func Events(ws, session int64, evs []store.Event) error {
	for i := range evs {
		e := &evs[i]
		if (e.WorkspaceID != 0 && e.WorkspaceID != ws) || (e.SessionID != 0 && e.SessionID != session) {
			return fmt.Errorf("event %d of session %d in workspace %d appended to session %d of workspace %d: %w",
				i, e.SessionID, e.WorkspaceID, session, ws, store.ErrNotFound)
		}
		if e.Type == "" {
			return invalid("event %d type: must not be empty", i)
		}
	}
	return nil
}

// Artifact checks an artifact before it is stored.
func Artifact(a *store.Artifact) error {
	switch a.Kind {
	case store.ArtifactMarkdown, store.ArtifactHTML, store.ArtifactImage, store.ArtifactPDF:
	default:
		return invalid("artifact kind %q: want %s, %s, %s or %s", a.Kind,
			store.ArtifactMarkdown, store.ArtifactHTML, store.ArtifactImage, store.ArtifactPDF)
	}
	if err := Name("artifact", a.Name); err != nil {
		return err
	}
	if len(a.Name) > store.MaxArtifactName {
		return invalid("artifact name: at most %d bytes, got %d", store.MaxArtifactName, len(a.Name))
	}
	if strings.TrimSpace(a.ContentType) == "" || len(a.ContentType) > store.MaxArtifactName {
		return invalid("artifact content type: must be 1 to %d bytes", store.MaxArtifactName)
	}
	if len(a.Data) > store.MaxArtifactBytes {
		return invalid("artifact content: at most %d bytes, got %d", store.MaxArtifactBytes, len(a.Data))
	}
	return nil
}

// Notification checks a notice before it is stored.
func Notification(n *store.Notification) error {
	switch {
	case n.Kind == "":
		return invalid("kind: must not be empty")
	case n.Text == "":
		return invalid("text: must not be empty")
	case len(n.Text) > 4096:
		return invalid("text: %d bytes; the limit is 4096", len(n.Text))
	case len(n.Key) > 200:
		return invalid("key: %d bytes; the limit is 200", len(n.Key))
	}
	return nil
}

// NotificationPage checks a page size of Notifications.
func NotificationPage(limit int) error {
	if limit < 1 || limit > store.MaxNotificationPage {
		return invalid("limit %d: want 1 to %d", limit, store.MaxNotificationPage)
	}
	return nil
}
