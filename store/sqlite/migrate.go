package sqlite

import (
	"embed"
	"fmt"
	"time"

	"github.com/wetel/wetel/store/internal/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// applyMigrations applies the embedded migrations not yet recorded in
// schema_migrations, all in one BEGIN IMMEDIATE transaction: a second
// process opening the same file at the same moment waits for the write lock
// (busy timeout), then finds them recorded and applies nothing.
func applyMigrations(c *conn) (err error) {
	all, err := migrate.Load(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	if err := c.script(`BEGIN IMMEDIATE`); err != nil {
		return fmt.Errorf("starting migration: %w", err)
	}
	defer func() {
		if err != nil {
			_ = c.script(`ROLLBACK`)
		}
	}()
	if err := c.script(`CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at INTEGER NOT NULL
	) STRICT`); err != nil {
		return fmt.Errorf("creating schema_migrations: %w", err)
	}
	applied := map[int64]bool{}
	r, err := c.query(qMigrations)
	if err != nil {
		return fmt.Errorf("reading schema_migrations: %w", err)
	}
	for {
		ok, err := r.next()
		if err != nil {
			r.close()
			return fmt.Errorf("reading schema_migrations: %w", err)
		}
		if !ok {
			break
		}
		applied[r.vals[0].(int64)] = true
	}
	r.close()
	for _, m := range all {
		if applied[int64(m.Version)] {
			continue
		}
		if err := c.script(m.SQL); err != nil {
			return fmt.Errorf("applying migration %s: %w", m.Name, err)
		}
		if _, err := c.exec(qRecordMigration, m.Version, m.Name, time.Now().UnixMilli()); err != nil {
			return fmt.Errorf("recording migration %s: %w", m.Name, err)
		}
	}
	if err := c.script(`COMMIT`); err != nil {
		return fmt.Errorf("committing migrations: %w", err)
	}
	return nil
}
