package sqlite

import "context"

// AppliedMigrations lists schema_migrations' versions in order, for tests.
func AppliedMigrations(ctx context.Context, s *Store) ([]int, error) {
	var out []int
	err := s.read(ctx, func(c *conn) error {
		r, err := c.query(qMigrations)
		if err != nil {
			return err
		}
		defer r.close()
		for {
			ok, err := r.next()
			if err != nil || !ok {
				return err
			}
			out = append(out, int(i64(r.vals[0])))
		}
	})
	return out, err
}

// Checkpoint copies the WAL into the database file and truncates it.
func Checkpoint(ctx context.Context, s *Store) error {
	c, err := s.w.get(ctx)
	if err != nil {
		return err
	}
	defer s.w.put(c)
	return c.script(`PRAGMA wal_checkpoint(TRUNCATE)`)
}
