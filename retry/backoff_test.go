package retry

import (
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestBackoffSequences(t *testing.T) {
	t.Parallel()
	half := func() float64 { return 0.5 }
	tests := []struct {
		name string
		p    Policy
		rnd  func() float64
		want []time.Duration // waits after attempts 1, 2, 3, ...
	}{
		{"fixed", Policy{Backoff: BackoffFixed, Delay: 500 * ms, MaxDelay: 5000 * ms}, half,
			[]time.Duration{500 * ms, 500 * ms, 500 * ms}},
		{"exponential doubles", Policy{Backoff: BackoffExponential, Delay: 500 * ms, MaxDelay: 5000 * ms}, half,
			[]time.Duration{500 * ms, 1000 * ms, 2000 * ms, 4000 * ms}},
		{"exponential capped at maxDelay", Policy{Backoff: BackoffExponential, Delay: 1500 * ms, MaxDelay: 4000 * ms}, half,
			[]time.Duration{1500 * ms, 3000 * ms, 4000 * ms, 4000 * ms}},
		{"fixed capped at maxDelay", Policy{Backoff: BackoffFixed, Delay: 900 * ms, MaxDelay: 600 * ms}, half,
			[]time.Duration{600 * ms, 600 * ms}},
		{"jitter r=0 is -20 %", Policy{Backoff: BackoffExponential, Delay: 500 * ms, MaxDelay: 5000 * ms, Jitter: true},
			func() float64 { return 0 }, []time.Duration{400 * ms, 800 * ms, 1600 * ms}},
		{"jitter r=1 is +20 %", Policy{Backoff: BackoffExponential, Delay: 500 * ms, MaxDelay: 5000 * ms, Jitter: true},
			func() float64 { return 1 }, []time.Duration{600 * ms, 1200 * ms, 2400 * ms}},
		{"jitter r=0.5 is exact", Policy{Backoff: BackoffFixed, Delay: 700 * ms, MaxDelay: 5000 * ms, Jitter: true}, half,
			[]time.Duration{700 * ms, 700 * ms}},
		{"jitter still capped at maxDelay", Policy{Backoff: BackoffExponential, Delay: 2000 * ms, MaxDelay: 5000 * ms, Jitter: true},
			func() float64 { return 1 }, []time.Duration{2400 * ms, 4800 * ms, 5000 * ms}},
		{"jitter at the cap only shortens", Policy{Backoff: BackoffExponential, Delay: 5000 * ms, MaxDelay: 5000 * ms, Jitter: true},
			func() float64 { return 0 }, []time.Duration{4000 * ms, 4000 * ms}},
		{"rand out of range is clamped", Policy{Backoff: BackoffFixed, Delay: 1000 * ms, MaxDelay: 5000 * ms, Jitter: true},
			func() float64 { return -3 }, []time.Duration{800 * ms}},
		{"rand above 1 is clamped", Policy{Backoff: BackoffFixed, Delay: 1000 * ms, MaxDelay: 5000 * ms, Jitter: true},
			func() float64 { return 7 }, []time.Duration{1200 * ms}},
		{"no delay is no wait", Policy{Backoff: BackoffExponential, Jitter: true}, half,
			[]time.Duration{0, 0}},
		{"negative delay is no wait", Policy{Backoff: BackoffFixed, Delay: -time.Second, MaxDelay: time.Second}, half,
			[]time.Duration{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []time.Duration
			for k := 1; k <= len(tt.want); k++ {
				got = append(got, tt.p.backoff(k, tt.rnd))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("waits = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBackoffJitterBounds(t *testing.T) {
	t.Parallel()
	p := Policy{Backoff: BackoffExponential, Delay: 300 * ms, MaxDelay: 5000 * ms, Jitter: true}
	for i := 0; i <= 100; i++ {
		r := float64(i) / 100
		for k := 1; k <= 4; k++ {
			base := min(300*ms<<(k-1), 5000*ms)
			got := p.backoff(k, func() float64 { return r })
			lo, hi := base*8/10, min(base*12/10, 5000*ms)
			if got < lo || got > hi {
				t.Fatalf("r=%v k=%d: wait %v outside [%v, %v]", r, k, got, lo, hi)
			}
		}
	}
}

func TestDoWaitsTheBackoff(t *testing.T) {
	t.Parallel()
	p := Policy{MaxAttempts: 4, Backoff: BackoffExponential, Delay: 500 * ms, MaxDelay: 1500 * ms, Jitter: true, On: DefaultOn()}
	h := newHarness()
	h.env.Rand = func() float64 { return 1 }
	got := h.do(p, post, h.always(errRefused))
	checkResult(t, got, OutcomeExhausted, []Attempt{
		{N: 1, ErrorClass: "UNREACHABLE", WaitMs: 600},
		{N: 2, ErrorClass: "UNREACHABLE", WaitMs: 1200},
		{N: 3, ErrorClass: "UNREACHABLE", WaitMs: 1500},
		{N: 4, ErrorClass: "UNREACHABLE"},
	})
	if want := []time.Duration{600 * ms, 1200 * ms, 1500 * ms}; !slices.Equal(h.waits, want) {
		t.Errorf("waited %v, want %v", h.waits, want)
	}
	if h.tries != 4 {
		t.Errorf("%d attempts, want 4", h.tries)
	}
}
