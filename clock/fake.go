package clock

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Fake is a clock that only moves when told to. Its timers and tickers
// fire as Advance passes their time, so a loop waiting on one runs when a
// test says so. It is safe for concurrent use.
//
// A test drives a loop in two steps: BlockUntil waits until the loop is
// waiting on the clock (its timers are armed), then Advance moves past the
// loop's period. A loop that re-arms a timer after each pass tells the
// test the pass is over by arming it again, so BlockUntil after Advance
// waits for the pass to finish.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	armed   []*fakeTimer
	changed chan struct{} // closed and replaced when armed changes
}

// NewFake returns a fake clock set to t.
func NewFake(t time.Time) *Fake { return &Fake{now: t, changed: make(chan struct{})} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Advance moves the fake time forward by d, firing in time order every
// timer and tick that falls due on the way. A tick that finds its channel
// full is dropped, as on a time.Ticker.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	target := f.now.Add(d)
	for {
		t := f.nextDue(target)
		if t == nil {
			break
		}
		if t.at.After(f.now) {
			f.now = t.at
		}
		f.fire(t)
		if t.period > 0 && len(t.c) == cap(t.c) && !t.at.After(target) {
			// Every tick up to the last one before target would be
			// dropped: skip to it rather than loop through each.
			t.at = t.at.Add(target.Sub(t.at) / t.period * t.period)
		}
	}
	if target.After(f.now) {
		f.now = target
	}
}

// BlockUntil waits until exactly n timers and tickers are armed on the
// clock, or until ctx is done, when it says how many were.
func (f *Fake) BlockUntil(ctx context.Context, n int) error {
	for {
		f.mu.Lock()
		k, changed := len(f.armed), f.changed
		f.mu.Unlock()
		if k == n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("clock: %d timers armed, waiting for %d: %w", k, n, ctx.Err())
		}
	}
}

// NewTimer returns a timer that fires when the fake time reaches d from now.
func (f *Fake) NewTimer(d time.Duration) Timer {
	t := &fakeTimer{f: f, c: make(chan time.Time, 1)}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.arm(t, d)
	return t
}

// NewTicker returns a ticker that fires each time the fake time passes
// another d.
func (f *Fake) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker") // as time.NewTicker
	}
	t := &fakeTimer{f: f, c: make(chan time.Time, 1), period: d}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.arm(t, d)
	return fakeTicker{t}
}

// nextDue returns the armed timer due first at or before target, or nil.
func (f *Fake) nextDue(target time.Time) *fakeTimer {
	var next *fakeTimer
	for _, t := range f.armed {
		if !t.at.After(target) && (next == nil || t.at.Before(next.at)) {
			next = t
		}
	}
	return next
}

// arm schedules t d from now, firing it at once when d <= 0. f.mu is held.
func (f *Fake) arm(t *fakeTimer, d time.Duration) {
	t.at = f.now.Add(d)
	if d <= 0 {
		t.send(f.now)
		return
	}
	f.armed = append(f.armed, t)
	f.notify()
}

// fire sends t's time and re-arms a ticker one period on. f.mu is held.
func (f *Fake) fire(t *fakeTimer) {
	t.send(t.at)
	if t.period > 0 {
		t.at = t.at.Add(t.period)
		return
	}
	f.disarm(t)
}

// disarm removes t from the armed timers, reporting whether it was there.
// f.mu is held.
func (f *Fake) disarm(t *fakeTimer) bool {
	for i, a := range f.armed {
		if a == t {
			f.armed = append(f.armed[:i], f.armed[i+1:]...)
			f.notify()
			return true
		}
	}
	return false
}

func (f *Fake) notify() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// fakeTimer is a Fake's timer, or its ticker when period is set.
type fakeTimer struct {
	f      *Fake
	c      chan time.Time
	at     time.Time
	period time.Duration
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) send(now time.Time) {
	select {
	case t.c <- now:
	default:
	}
}

// drain empties the channel, so no stale value is read after Stop or Reset.
func (t *fakeTimer) drain() {
	select {
	case <-t.c:
	default:
	}
}

func (t *fakeTimer) Stop() bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	t.drain()
	return t.f.disarm(t)
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	t.drain()
	was := t.f.disarm(t)
	t.f.arm(t, d)
	return was
}

// fakeTicker is a Fake's ticker: a fakeTimer with a period, whose Stop
// returns nothing.
type fakeTicker struct{ *fakeTimer }

func (t fakeTicker) Stop() { t.fakeTimer.Stop() }
