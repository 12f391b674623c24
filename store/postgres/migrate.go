package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/wetel/wetel/store/internal/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// applyMigrations applies the embedded migrations not yet recorded in
// schema_migrations, in one transaction holding an advisory lock keyed by
// the schema: a second process migrating the same schema at the same
// moment waits for the lock, then finds them recorded and applies nothing.
func applyMigrations(ctx context.Context, c *pgx.Conn) error {
	all, err := migrate.Load(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	return pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('wetel migrations ' || current_schema()))`); err != nil {
			return fmt.Errorf("locking for migration: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    integer PRIMARY KEY,
			name       text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
			return fmt.Errorf("creating schema_migrations: %w", err)
		}
		rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return fmt.Errorf("reading schema_migrations: %w", err)
		}
		versions, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		if err != nil {
			return fmt.Errorf("reading schema_migrations: %w", err)
		}
		applied := map[int]bool{}
		for _, v := range versions {
			applied[int(v)] = true
		}
		for _, m := range all {
			if applied[m.Version] {
				continue
			}
			// No arguments: the simple protocol, which runs a script of
			// many statements.
			if _, err := tx.Exec(ctx, m.SQL, pgx.QueryExecModeSimpleProtocol); err != nil {
				return fmt.Errorf("applying migration %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`,
				m.Version, m.Name); err != nil {
				return fmt.Errorf("recording migration %s: %w", m.Name, err)
			}
		}
		return nil
	})
}
