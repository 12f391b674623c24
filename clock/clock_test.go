package clock

import (
	"context"
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 3, 9, 30, 0, 0, time.UTC)

func TestBackoff(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	tests := []struct {
		name        string
		base, limit time.Duration
		n           int
		want        time.Duration
	}{
		{"n 0 is the base", 500 * ms, 5 * time.Second, 0, 500 * ms},
		{"once doubled", 500 * ms, 5 * time.Second, 1, 1000 * ms},
		{"three times doubled", 500 * ms, 5 * time.Second, 3, 4000 * ms},
		{"capped", 500 * ms, 5 * time.Second, 4, 5 * time.Second},
		{"capped when the base is over the limit", 900 * ms, 600 * ms, 0, 600 * ms},
		{"zero stays zero", 0, 5 * time.Second, 10, 0},
		{"a huge n does not overflow", 50 * ms, 10 * time.Second, 1000, 10 * time.Second},
		{"a limit near the largest duration does not overflow", time.Second, math.MaxInt64, 200, math.MaxInt64},
		{"a negative limit wins", 500 * ms, -1, 3, -1},
	}
	for _, tc := range tests {
		if got := Backoff(tc.base, tc.limit, tc.n); got != tc.want {
			t.Errorf("%s: Backoff(%v, %v, %d) = %v, want %v", tc.name, tc.base, tc.limit, tc.n, got, tc.want)
		}
	}
}

// fired returns what c holds now, without waiting.
func fired(c <-chan time.Time) (time.Time, bool) {
	select {
	case v := <-c:
		return v, true
	default:
		return time.Time{}, false
	}
}

func TestFakeTimerFiresWhenAdvancedPastIt(t *testing.T) {
	t.Parallel()
	f := NewFake(t0)
	tm := f.NewTimer(time.Minute)
	f.Advance(59 * time.Second)
	if _, ok := fired(tm.C()); ok {
		t.Fatal("the timer fired before its minute")
	}
	f.Advance(2 * time.Second)
	if v, ok := fired(tm.C()); !ok || !v.Equal(t0.Add(time.Minute)) {
		t.Fatalf("after the minute: fired %v at %v, want true at %v", ok, v, t0.Add(time.Minute))
	}
	if got := f.Now(); !got.Equal(t0.Add(61 * time.Second)) {
		t.Errorf("Now = %v, want %v", got, t0.Add(61*time.Second))
	}
	f.Advance(time.Hour)
	if _, ok := fired(tm.C()); ok {
		t.Error("a timer fired twice")
	}
}

func TestFakeTimerStopAndReset(t *testing.T) {
	t.Parallel()
	f := NewFake(t0)
	tm := f.NewTimer(time.Second)
	if !tm.Stop() {
		t.Error("Stop of an armed timer reported false")
	}
	f.Advance(time.Minute)
	if _, ok := fired(tm.C()); ok {
		t.Error("a stopped timer fired")
	}
	if tm.Reset(time.Second) {
		t.Error("Reset of a stopped timer reported it armed")
	}
	f.Advance(time.Second)
	// Fired and not read: Reset drops the stale value.
	tm.Reset(time.Second)
	if _, ok := fired(tm.C()); ok {
		t.Error("a stale value was read after Reset")
	}
	f.Advance(time.Second)
	if _, ok := fired(tm.C()); !ok {
		t.Error("a reset timer did not fire")
	}
	zero := f.NewTimer(0)
	if _, ok := fired(zero.C()); !ok {
		t.Error("a timer of 0 did not fire at once")
	}
}

func TestFakeTickerFiresEachPeriodAndDropsWhatIsNotRead(t *testing.T) {
	t.Parallel()
	f := NewFake(t0)
	tk := f.NewTicker(10 * time.Second)
	for i := 1; i <= 3; i++ {
		f.Advance(10 * time.Second)
		if v, ok := fired(tk.C()); !ok || !v.Equal(t0.Add(time.Duration(i)*10*time.Second)) {
			t.Fatalf("tick %d: fired %v at %v", i, ok, v)
		}
	}
	f.Advance(24 * time.Hour) // thousands of periods, one pending tick
	if _, ok := fired(tk.C()); !ok {
		t.Fatal("no tick after a day")
	}
	if _, ok := fired(tk.C()); ok {
		t.Fatal("a ticker held two ticks")
	}
	f.Advance(10 * time.Second)
	if _, ok := fired(tk.C()); !ok {
		t.Fatal("the ticker stopped ticking after a long advance")
	}
	tk.Stop()
	f.Advance(time.Minute)
	if _, ok := fired(tk.C()); ok {
		t.Error("a stopped ticker ticked")
	}
}

func TestFakeFiresInTimeOrder(t *testing.T) {
	t.Parallel()
	f := NewFake(t0)
	late, early := f.NewTimer(2*time.Second), f.NewTimer(time.Second)
	f.Advance(time.Minute)
	e, _ := fired(early.C())
	l, _ := fired(late.C())
	if !e.Equal(t0.Add(time.Second)) || !l.Equal(t0.Add(2*time.Second)) {
		t.Errorf("fired at %v and %v, want each at its own time", e, l)
	}
}

func TestFakeBlockUntilSeesALoopWaiting(t *testing.T) {
	t.Parallel()
	f := NewFake(t0)
	passes := make(chan int)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		tm := f.NewTimer(time.Minute)
		defer tm.Stop()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-tm.C():
			}
			passes <- n
			tm.Reset(time.Minute)
		}
	}()
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	for want := 1; want <= 3; want++ {
		if err := f.BlockUntil(wctx, 1); err != nil {
			t.Fatal(err)
		}
		f.Advance(time.Minute)
		if got := <-passes; got != want {
			t.Fatalf("pass %d, want %d", got, want)
		}
	}
	short, scancel := context.WithCancel(context.Background())
	scancel()
	if err := f.BlockUntil(short, 5); err == nil {
		t.Error("BlockUntil of a done ctx returned nil with no 5 timers armed")
	}
}

func TestRealTimers(t *testing.T) {
	t.Parallel()
	var c Clock = Real{}
	tm := c.NewTimer(0)
	<-tm.C() // fires at once
	tk := c.NewTicker(time.Hour)
	tk.Stop()
	if tm.Reset(time.Hour) {
		t.Error("Reset of a fired real timer reported it armed")
	}
	if !tm.Stop() {
		t.Error("Stop of an armed real timer reported false")
	}
}
