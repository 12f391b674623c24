package sqlite

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wetel/wetel/store"
	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Times are stored as Unix milliseconds: the precision the contract asks
// for, in 6 bytes.

func ms(t time.Time) int64 { return t.UnixMilli() }

// msOrNow stores t, or the current time when the caller left it zero.
func msOrNow(t time.Time) int64 {
	if t.IsZero() {
		return time.Now().UnixMilli()
	}
	return t.UnixMilli()
}

func fromMs(v int64) time.Time { return time.UnixMilli(v).UTC() }

// nullMs stores a zero time as NULL.
func nullMs(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// derefTime is *t, or the zero time for nil.
func derefTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// nullID stores the id 0, which means "none", as NULL so the foreign key
// does not look for it.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// jsonText binds a document as TEXT (a []byte would be a BLOB, which the
// STRICT tables refuse); an empty one is NULL.
func jsonText(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// Readers of one column's value, as the driver returns it: int64, string,
// []byte or nil. NULL reads as the zero value.

func i64(v driver.Value) int64 {
	n, _ := v.(int64)
	return n
}

func text(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}

// doc reads a JSON document; NULL is nil.
func doc(v driver.Value) json.RawMessage {
	switch x := v.(type) {
	case string:
		return json.RawMessage(x)
	case []byte:
		return append(json.RawMessage(nil), x...)
	}
	return nil
}

func msTime(v driver.Value) time.Time { return fromMs(i64(v)) }

// msTimePtr reads a nullable time; NULL is nil.
func msTimePtr(v driver.Value) *time.Time {
	if v == nil {
		return nil
	}
	t := msTime(v)
	return &t
}

// code returns the extended SQLite result code of err, or 0.
func code(err error) int {
	var se *msqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

// mapErr turns "no row" and a foreign-key failure into ErrNotFound (the row
// named does not exist, or not in that workspace) and a uniqueness failure
// into ErrConflict.
func mapErr(err error) error {
	if errors.Is(err, errNoRow) {
		return store.ErrNotFound
	}
	switch code(err) {
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return fmt.Errorf("%w: %w", store.ErrNotFound, err)
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return fmt.Errorf("%w: %w", store.ErrConflict, err)
	}
	return err
}

// blob reads a TEXT or BLOB value as bytes of its own (the driver may
// reuse its buffer); NULL is nil.
func blob(v driver.Value) []byte {
	switch x := v.(type) {
	case string:
		return []byte(x)
	case []byte:
		return append([]byte(nil), x...)
	}
	return nil
}
