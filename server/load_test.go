package server

import (
	"context"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/client"
)

// BenchmarkAPILoad is the API under load as the issue states it: 200
// sessions sending messages at 2,000 turns per second in all (each session
// one message every 100 ms: the menu question, then "2", and again) through
// the GraphQL API to the demo workflow on SQLite, over loopback HTTP. It is
// an open loop: a message goes at its scheduled time whether or not the
// server kept up, and latency is measured from that time, so a server that
// falls behind shows it in p99 instead of slowing the load down. One op is
// one turn; -benchtime 20000x is ten seconds.
func BenchmarkAPILoad(b *testing.B) {
	benchLoad(b, 2000)
}

// BenchmarkAPICapacity is the same 200 sessions sending as fast as the
// server answers (a closed loop): the throughput ceiling.
func BenchmarkAPICapacity(b *testing.B) {
	benchLoad(b, 0)
}

func benchLoad(b *testing.B, rate float64) {
	const sessions = 200
	// One key sends all 200 sessions' turns: no rate limit, the load is
	// the point.
	ts := startServerB(b, Config{RateLimits: &RateLimits{}})
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: sessions, MaxConnsPerHost: sessions}}
	c := client.New(ts.url, testKey)
	c.HTTP = hc
	ids := make([]int, sessions)
	var agents struct{ Agents []struct{ ID int } }
	if err := c.Do(context.Background(), `{ agents { id } }`, nil, &agents); err != nil {
		b.Fatal(err)
	}
	for i := range ids {
		var s struct{ StartSession struct{ ID int } }
		if err := c.Do(context.Background(), `mutation($a: Int!) { startSession(input: {agentId: $a}) { id } }`,
			map[string]any{"a": agents.Agents[0].ID}, &s); err != nil {
			b.Fatal(err)
		}
		ids[i] = s.StartSession.ID
	}
	perSession := max(1, b.N/sessions)
	var interval time.Duration
	if rate > 0 {
		interval = time.Duration(float64(time.Second) * sessions / rate)
	}
	lat := make([][]time.Duration, sessions)
	var wg sync.WaitGroup
	runtime.GC()
	b.ResetTimer()
	start := time.Now()
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts := [2]string{"hello", "2"}
			// Sessions start spread over one interval, as independent users do.
			due := start.Add(interval * time.Duration(i) / sessions)
			for k := range perSession {
				if interval > 0 {
					time.Sleep(time.Until(due))
				} else {
					due = time.Now()
				}
				var out turnOut
				if err := c.Do(context.Background(), sendMessage, map[string]any{"s": ids[i], "t": texts[k%2]}, &out); err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Since(due))
				due = due.Add(interval)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	if len(all) > 0 {
		b.ReportMetric(float64(len(all))/elapsed.Seconds(), "turns/s")
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/(1<<20), "go-sys-MB")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
}

// startServerB starts a server for a benchmark; cfg's DataDir and
// BootstrapKey are set here.
func startServerB(b *testing.B, cfg Config) *testServer {
	b.Helper()
	cfg.DataDir, cfg.BootstrapKey = b.TempDir(), testKey
	s, err := New(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	ts := &testServer{s: s, done: make(chan error, 1)}
	srv := &http.Server{Handler: s.Handler()}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ts.url = "http://" + ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() {
		_ = srv.Close()
		_ = s.Close(context.Background())
	})
	return ts
}
