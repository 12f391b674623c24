package postgres

import (
	"encoding/json"
	"time"
)

// orNow is t, or the current time when the caller left it zero, at the
// microsecond precision the column keeps.
func orNow(t time.Time) time.Time {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UTC().Truncate(time.Microsecond)
}

// nullTime stores a zero or nil time as NULL.
func nullTime(t *time.Time) any {
	if t == nil || t.IsZero() {
		return nil
	}
	return *t
}

// utcPtr reads a nullable time in UTC.
func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// nullID stores the id 0, which means "none", as NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// jsonText binds a document as text; an empty one is NULL.
func jsonText(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// rawJSON reads a text document back; NULL is nil.
func rawJSON(b []byte) json.RawMessage {
	if b == nil {
		return nil
	}
	return json.RawMessage(b)
}
