package server

import (
	"context"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wetel/wetel/client"
)

// BenchmarkAPILoad sends messages from 200 concurrent sessions through the
// GraphQL API to the demo workflow on SQLite, over loopback HTTP: each
// session asks (turn 1, the menu question) and answers (turn 2, "2"), and
// again. One op is one turn. It reports turns per second, the p50 and p99
// latency of a sendMessage, and the Go heap and runtime memory in use.
func BenchmarkAPILoad(b *testing.B) {
	const sessions = 200
	ts := startServerB(b)
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
	var next atomic.Int64
	lat := make([][]time.Duration, sessions)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			texts := [2]string{"hello", "2"}
			for k := 0; next.Add(1) <= int64(b.N); k++ {
				t0 := time.Now()
				var out turnOut
				if err := c.Do(context.Background(), sendMessage, map[string]any{"s": ids[i], "t": texts[k%2]}, &out); err != nil {
					b.Error(err)
					return
				}
				lat[i] = append(lat[i], time.Since(t0))
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

func startServerB(b *testing.B) *testServer {
	b.Helper()
	s, err := New(context.Background(), Config{DataDir: b.TempDir(), BootstrapKey: testKey})
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
