package models

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/wetel/wetel/failure"
)

// Usage keeps what a workspace's model calls used, per day (UTC, as
// "2006-01-02"), so the daily budgets hold. The server keeps it in the
// store, shared by a cluster's replicas; offline it is MemoryUsage.
type Usage interface {
	Used(ctx context.Context, day string) (tokens int64, cost float64, err error)
	Add(ctx context.Context, day string, tokens int64, cost float64) error
}

// MemoryUsage is Usage in this process's memory.
type MemoryUsage struct {
	mu   sync.Mutex
	days map[string]memoryDay
}

type memoryDay struct {
	tokens int64
	cost   float64
}

// Used returns the day's usage.
func (m *MemoryUsage) Used(_ context.Context, day string) (int64, float64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.days[day]
	return d.tokens, d.cost, nil
}

// Add adds to the day's usage.
func (m *MemoryUsage) Add(_ context.Context, day string, tokens int64, cost float64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.days == nil {
		m.days = map[string]memoryDay{}
	}
	d := m.days[day]
	d.tokens += tokens
	d.cost += cost
	m.days[day] = d
	return nil
}

// Day names now's day in UTC, as Usage keys it.
func Day(now time.Time) string { return now.UTC().Format("2006-01-02") }

// budgeted reports whether c has a daily budget.
func (c *Client) budgeted() bool { return c.cfg.DailyTokenBudget > 0 || c.cfg.DailySpendBudget > 0 }

// checkBudget refuses a call once the day's budget is spent.
func (c *Client) checkBudget(ctx context.Context, day string) error {
	if !c.budgeted() {
		return nil
	}
	tokens, cost, err := c.usage.Used(ctx, day)
	if err != nil {
		return &failure.Error{Code: failure.Unknown, Message: "reading the workspace's model usage", Err: err}
	}
	if b := c.cfg.DailyTokenBudget; b > 0 && tokens >= b {
		return &failure.Error{Code: failure.Rejected, Message: fmt.Sprintf(
			"the workspace's daily token budget of %d is spent (%d used on %s UTC); model calls resume at 00:00 UTC", b, tokens, day)}
	}
	if b := c.cfg.DailySpendBudget; b > 0 && cost >= b {
		return &failure.Error{Code: failure.Rejected, Message: fmt.Sprintf(
			"the workspace's daily spend budget of %.4f is spent (%.4f used on %s UTC); model calls resume at 00:00 UTC", b, cost, day)}
	}
	return nil
}

// record prices an answered call and, when the workspace has a budget,
// adds its tokens and cost to the day's usage. A failure to record is not
// the call's failure: the reply was had.
func (c *Client) record(ctx context.Context, day string, r *Response) {
	r.Cost = c.cfg.Prices[r.Model].Cost(r.TokensIn, r.TokensOut)
	if !c.budgeted() || (r.TokensIn+r.TokensOut == 0 && r.Cost == 0) {
		return
	}
	_ = c.usage.Add(context.WithoutCancel(ctx), day, int64(r.TokensIn+r.TokensOut), r.Cost)
}
