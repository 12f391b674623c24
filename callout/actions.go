package callout

import (
	"context"
	"fmt"
)

// ActionList is an ActionSource that holds its actions in memory, by id:
// what `wetel run --workspace` registers, and what tests use.
type ActionList map[int64]CustomAction

// CustomAction returns the action with the id.
func (l ActionList) CustomAction(_ context.Context, id int64) (CustomAction, error) {
	a, ok := l[id]
	if !ok {
		return CustomAction{}, fmt.Errorf("custom action %d: %w", id, ErrNoSuchAction)
	}
	return a, nil
}
