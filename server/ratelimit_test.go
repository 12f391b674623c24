package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

// fakeTime is a clock the limiter reads; tests move it by hand.
type fakeTime struct{ t time.Time }

func (f *fakeTime) now() time.Time          { return f.t }
func (f *fakeTime) advance(d time.Duration) { f.t = f.t.Add(d) }

func testLimiter(cfg RateLimits) (*limiter, *fakeTime, *[]time.Duration) {
	l := newLimiter(cfg)
	ft := &fakeTime{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	var slept []time.Duration
	l.now = ft.now
	l.sleep = func(_ context.Context, d time.Duration) { slept = append(slept, d) }
	return l, ft, &slept
}

func TestRateLimitKeyAndWorkspace(t *testing.T) {
	t.Parallel()
	l, ft, _ := testLimiter(RateLimits{KeyPerSecond: 1, KeyBurst: 3, WorkspacePerSecond: 2, WorkspaceBurst: 4})
	a1, a2 := gql.Caller{WorkspaceID: 1, KeyID: 11}, gql.Caller{WorkspaceID: 1, KeyID: 12}
	other := gql.Caller{WorkspaceID: 2, KeyID: 21}
	for i := range 3 {
		if ok, _ := l.allowCaller(a1); !ok {
			t.Fatalf("request %d of key 11's burst of 3 was refused", i+1)
		}
	}
	ok, wait := l.allowCaller(a1)
	if ok || wait <= 0 || wait > time.Second {
		t.Fatalf("the 4th request of key 11: allowed %v, wait %v; want refused for up to 1 s", ok, wait)
	}
	// The workspace has 1 of its 4 left: key 12 takes it, then is refused
	// by the workspace although its own bucket is full.
	if ok, _ := l.allowCaller(a2); !ok {
		t.Fatal("key 12's first request was refused")
	}
	if ok, _ := l.allowCaller(a2); ok {
		t.Fatal("key 12 went past its workspace's burst")
	}
	// Another workspace is untouched by all of this.
	for i := range 3 {
		if ok, _ := l.allowCaller(other); !ok {
			t.Fatalf("workspace 2's request %d was refused", i+1)
		}
	}
	// A refusal by the workspace took nothing from the key: after the
	// workspace refills (1 s at 2/s), key 12 has its whole burst left.
	ft.advance(time.Second)
	for i := range 2 {
		if ok, _ := l.allowCaller(a2); !ok {
			t.Fatalf("key 12's request %d after a second was refused", i+1)
		}
	}
}

func TestRateLimitFailedAuthentications(t *testing.T) {
	t.Parallel()
	l, ft, slept := testLimiter(RateLimits{AuthSlowAfter: 5, AuthRefuseAfter: 20, AuthWindow: time.Minute, AuthDelay: 100 * time.Millisecond})
	for i := 1; i < 20; i++ {
		// The first five failures are answered at once, then each is held
		// back 100 ms longer than the one before.
		want := time.Duration(max(i-5, 0)) * 100 * time.Millisecond
		if d := l.failed("203.0.113.9"); d != want {
			t.Errorf("failure %d is held back %v, want %v", i, d, want)
		}
		if refused, _ := l.refusedSource("203.0.113.9"); refused {
			t.Fatalf("refused after %d failures, want 20", i)
		}
	}
	if d := l.failed("203.0.113.9"); d != 1500*time.Millisecond {
		t.Errorf("the 20th failure is held back %v, want 1.5 s", d)
	}
	refused, left := l.refusedSource("203.0.113.9")
	if !refused || left != time.Minute {
		t.Fatalf("after 20 failures: refused %v for %v, want a minute", refused, left)
	}
	if refused, _ := l.refusedSource("198.51.100.7"); refused {
		t.Error("another source was refused")
	}
	ft.advance(time.Minute)
	if refused, _ := l.refusedSource("203.0.113.9"); refused {
		t.Error("still refused a minute after the last failure")
	}
	if d := l.failed("203.0.113.9"); d != 0 {
		t.Errorf("the first failure of a new window is held back %v", d)
	}
	if len(*slept) != 0 {
		t.Errorf("the limiter slept by itself: %v", *slept)
	}
}

// TestRateLimitTwoWorkspaces: one workspace floods the API far past its
// limit; every one of its excess requests is refused with 429 and a
// Retry-After, and the other workspace's requests all go through.
func TestRateLimitTwoWorkspaces(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{RateLimits: &RateLimits{KeyPerSecond: 5, KeyBurst: 5, WorkspacePerSecond: 10, WorkspaceBurst: 10}})
	ft := &fakeTime{t: time.Now()}
	ts.s.limits.mu.Lock()
	ts.s.limits.now = ft.now
	ts.s.limits.mu.Unlock()
	ctx := context.Background()
	other, err := ts.s.store.CreateWorkspace(ctx, "Quiet")
	if err != nil {
		t.Fatal(err)
	}
	quietKey := "wtl_quiet_workspace_key_0123456789"
	if _, err := ts.s.store.CreateAPIKey(ctx, store.APIKey{WorkspaceID: other.ID, Name: "k", Role: store.RoleOwner,
		Prefix: gql.ShownPrefix(quietKey), Hash: gql.HashKey(quietKey)}); err != nil {
		t.Fatal(err)
	}
	post := func(key string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, ts.url+"/graphql", strings.NewReader(`{"query":"{ me { role } }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	refused := 0
	for range 50 { // 10 times the key's burst
		resp := post(testKey)
		if resp.StatusCode == http.StatusTooManyRequests {
			refused++
			var body struct {
				Errors []struct {
					Extensions struct{ Code string } `json:"extensions"`
				} `json:"errors"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&body)
			if resp.Header.Get("Retry-After") != "1" || len(body.Errors) != 1 || body.Errors[0].Extensions.Code != gql.CodeLimit {
				t.Fatalf("a refusal: Retry-After %q, errors %+v", resp.Header.Get("Retry-After"), body.Errors)
			}
		}
		resp.Body.Close()
	}
	if refused != 45 {
		t.Errorf("%d of 50 flooding requests refused, want 45 (the key's burst is 5)", refused)
	}
	for i := range 5 {
		resp := post(quietKey)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the quiet workspace's request %d: HTTP %d", i+1, resp.StatusCode)
		}
	}
}

// TestRateLimitRefusesAGuesser: a source that keeps sending wrong keys is
// slowed, then refused with 429 even when it finally sends a right one.
func TestRateLimitRefusesAGuesser(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{RateLimits: &RateLimits{AuthSlowAfter: 2, AuthRefuseAfter: 4, AuthWindow: time.Hour, AuthDelay: time.Millisecond}})
	var held []time.Duration
	ts.s.limits.mu.Lock()
	ts.s.limits.sleep = func(_ context.Context, d time.Duration) { held = append(held, d) }
	ts.s.limits.mu.Unlock()
	status := func(key string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.url+"/graphql", strings.NewReader(`{"query":"{ me { role } }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	var got []int
	for range 4 {
		got = append(got, status("wtl_wrong_guess_0000000000000000000"))
	}
	got = append(got, status(testKey))
	if want := []int{401, 401, 401, 401, 429}; !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if len(held) != 2 {
		t.Errorf("answers held back: %v, want the 3rd and 4th failures", held)
	}
}
