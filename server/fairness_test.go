package server

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

// BenchmarkRateLimitFairness measures what one workspace flooding the API
// at ten times its limit costs another: workspace B sends 50 requests a
// second (open loop, latency from each request's due time), first alone,
// then while workspace A sends 1,000 a second against a limit of 100. It
// reports B's p99 in both phases and their ratio (the bound: 1.2).
// One op is one of B's requests in each phase; -benchtime 500x is ten
// seconds a phase.
func BenchmarkRateLimitFairness(b *testing.B) {
	limits := &RateLimits{KeyPerSecond: 100, KeyBurst: 100, WorkspacePerSecond: 100, WorkspaceBurst: 100}
	ts := startServerB(b, Config{RateLimits: limits})
	ctx := context.Background()
	ws, err := ts.s.store.CreateWorkspace(ctx, "Quiet")
	if err != nil {
		b.Fatal(err)
	}
	quietKey := "wtl_quiet_workspace_key_0123456789"
	if _, err := ts.s.store.CreateAPIKey(ctx, store.APIKey{WorkspaceID: ws.ID, Name: "k", Role: store.RoleOwner,
		Prefix: gql.ShownPrefix(quietKey), Hash: gql.HashKey(quietKey)}); err != nil {
		b.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	send := func(key string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.url+"/graphql", strings.NewReader(`{"query":"{ me { role } }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := hc.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	quiet := func() time.Duration {
		lat := make([]time.Duration, b.N)
		start := time.Now()
		var wg sync.WaitGroup
		for i := range b.N {
			due := start.Add(time.Duration(i) * 20 * time.Millisecond)
			time.Sleep(time.Until(due))
			wg.Add(1)
			go func() {
				defer wg.Done()
				if code := send(quietKey); code != http.StatusOK {
					b.Errorf("the quiet workspace got HTTP %d", code)
				}
				lat[i] = time.Since(due)
			}()
		}
		wg.Wait()
		slices.Sort(lat)
		return lat[len(lat)*99/100]
	}
	b.ResetTimer()
	alone := quiet()
	// The flood comes from another process, as it would from another
	// client: its own sending must not take this process's CPU.
	flood := exec.Command(os.Args[0], "-test.run=^TestFlooder$", "-test.count=1")
	flood.Env = append(os.Environ(), "WETEL_FLOOD_URL="+ts.url, "WETEL_FLOOD_KEY="+testKey)
	out := &strings.Builder{}
	flood.Stdout = out
	if err := flood.Start(); err != nil {
		b.Fatal(err)
	}
	flooded := quiet()
	_ = flood.Process.Signal(os.Interrupt)
	_ = flood.Wait()
	var floods, refused int64
	if i := strings.Index(out.String(), "flood "); i >= 0 {
		fmt.Sscanf(out.String()[i+len("flood "):], "%d %d", &floods, &refused)
	}
	b.StopTimer()
	b.ReportMetric(float64(alone.Microseconds()), "p99-alone-µs")
	b.ReportMetric(float64(flooded.Microseconds()), "p99-flooded-µs")
	b.ReportMetric(float64(flooded)/float64(alone), "p99-ratio")
	b.ReportMetric(float64(refused)/float64(max(floods, 1)), "flood-refused")
}

// TestFlooder is the other process of BenchmarkRateLimitFairness: with
// WETEL_FLOOD_URL set it sends 1,000 requests a second until interrupted,
// then prints how many it sent and how many were refused. Without it, it
// is skipped.
func TestFlooder(t *testing.T) {
	url, key := os.Getenv("WETEL_FLOOD_URL"), os.Getenv("WETEL_FLOOD_KEY")
	if url == "" {
		t.Skip("run by BenchmarkRateLimitFairness")
	}
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt)
	var sent, refused atomic.Int64
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 10 { // 10 senders of 100 requests a second each
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
				}
				req, _ := http.NewRequest(http.MethodPost, url+"/graphql", strings.NewReader(`{"query":"{ me { role } }"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+key)
				if resp, err := hc.Do(req); err == nil {
					if resp.StatusCode == http.StatusTooManyRequests {
						refused.Add(1)
					}
					resp.Body.Close()
				}
				sent.Add(1)
			}
		}()
	}
	select {
	case <-stop:
	case <-time.After(time.Minute):
	}
	close(done)
	wg.Wait()
	fmt.Printf("flood %d %d\n", sent.Load(), refused.Load())
}
