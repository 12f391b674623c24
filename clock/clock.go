// Package clock lets the engine and the background loops read time and wait
// through an interface, so deadlines, expiry, backoff and periodic work are
// tested without sleeping.
package clock

import (
	"time"
)

// Clock tells the time and makes the timers that wait on it.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer that fires once, when d has passed on this
	// clock; d <= 0 fires at once.
	NewTimer(d time.Duration) Timer
	// NewTicker returns a ticker that fires every d on this clock, dropping
	// ticks a slow reader misses, like time.Ticker. d must be positive.
	NewTicker(d time.Duration) Ticker
}

// Timer is a time.Timer made by a Clock. As with time.Timer since Go 1.23,
// no stale value is received after Stop or Reset returns.
type Timer interface {
	// C receives the clock's time when the timer fires.
	C() <-chan time.Time
	// Stop disarms the timer, reporting whether it was armed.
	Stop() bool
	// Reset arms the timer to fire d from now, reporting whether it was
	// armed before.
	Reset(d time.Duration) bool
}

// Ticker is a time.Ticker made by a Clock.
type Ticker interface {
	// C receives the clock's time at each tick.
	C() <-chan time.Time
	// Stop ends the ticks.
	Stop()
}

// Real is the wall clock.
type Real struct{}

// Now returns the current time.
func (Real) Now() time.Time { return time.Now() }

// NewTimer returns a time.Timer.
func (Real) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

// NewTicker returns a time.Ticker.
func (Real) NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }

// Since returns the time elapsed since start. On the real clock it reads
// only the monotonic clock, which costs one clock read where time.Now costs
// two; the engine calls it once per dispatch.
func Since(c Clock, start time.Time) time.Duration {
	if _, ok := c.(Real); ok {
		return time.Since(start)
	}
	return c.Now().Sub(start)
}

// Backoff returns base doubled n times, never more than limit: base,
// 2·base, 4·base, … for n = 0, 1, 2, …. It is the one doubling wait of the
// code base (retry policies, the event persister, the outbox, SQLite's
// open), so they all cap the same way. A base of zero stays zero; doubling
// stops at the limit, so a large n never overflows.
func Backoff(base, limit time.Duration, n int) time.Duration {
	d := base
	for i := 0; i < n && d > 0 && d < limit; i++ {
		if d > limit/2 {
			d = limit
			break
		}
		d *= 2
	}
	return min(d, limit)
}
