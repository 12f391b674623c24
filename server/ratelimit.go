package server

import (
	"context"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/wetel/wetel/server/gql"
)

// RateLimits bound what one API key, one workspace and one unauthenticated
// source may ask of a server, so that a flooding client is refused cheaply
// (429 with Retry-After, before its request is parsed) and cannot slow other
// workspaces down. A rate of 0 turns that limit off.
type RateLimits struct {
	// KeyPerSecond and KeyBurst bound the requests of one API key.
	KeyPerSecond float64
	KeyBurst     int
	// WorkspacePerSecond and WorkspaceBurst bound all keys of a workspace.
	WorkspacePerSecond float64
	WorkspaceBurst     int
	// AnonymousPerSecond and AnonymousBurst bound requests without a key,
	// per source address.
	AnonymousPerSecond float64
	AnonymousBurst     int
	// AuthSlowAfter failed authentications from one source within
	// AuthWindow slow its next failures down (AuthDelay more per failure, at
	// most 2 s); after AuthRefuseAfter it is refused outright until
	// AuthWindow has passed since its last failure.
	AuthSlowAfter   int
	AuthRefuseAfter int
	AuthWindow      time.Duration
	AuthDelay       time.Duration
}

// DefaultRateLimits are generous for a person or a service, and low enough
// that a runaway client is stopped within a second.
func DefaultRateLimits() RateLimits {
	return RateLimits{KeyPerSecond: 100, KeyBurst: 200, WorkspacePerSecond: 300, WorkspaceBurst: 600,
		AnonymousPerSecond: 10, AnonymousBurst: 20,
		AuthSlowAfter: 5, AuthRefuseAfter: 20, AuthWindow: time.Minute, AuthDelay: 100 * time.Millisecond}
}

// maxLimiters bounds each table of limiters: keys and workspaces are rows of
// the store, but sources are whatever connects. A full table is emptied,
// which forgets the state of every bucket rather than growing without end.
const maxLimiters = 100_000

// limiter holds the buckets of one server; now and sleep are injected so
// tests drive time instead of waiting for it.
type limiter struct {
	cfg   RateLimits
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration)

	mu         sync.Mutex
	keys       map[int64]*rate.Limiter
	workspaces map[int64]*rate.Limiter
	anonymous  map[string]*rate.Limiter
	failures   map[string]*authFailures
}

type authFailures struct {
	count int
	last  time.Time
}

func newLimiter(cfg RateLimits) *limiter {
	return &limiter{cfg: cfg, now: time.Now, sleep: sleepCtx,
		keys: map[int64]*rate.Limiter{}, workspaces: map[int64]*rate.Limiter{},
		anonymous: map[string]*rate.Limiter{}, failures: map[string]*authFailures{}}
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// bucket returns the limiter of id in table, made on first use.
func bucket[K comparable](table map[K]*rate.Limiter, id K, perSecond float64, burst int) *rate.Limiter {
	l := table[id]
	if l == nil {
		if len(table) >= maxLimiters {
			clear(table)
		}
		l = rate.NewLimiter(rate.Limit(perSecond), max(burst, 1))
		table[id] = l
	}
	return l
}

// allowCaller takes one request from the key's and the workspace's buckets,
// or neither: it returns how long to wait when either is empty.
func (l *limiter) allowCaller(c gql.Caller) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var taken []*rate.Reservation
	for _, b := range []struct {
		on    bool
		table map[int64]*rate.Limiter
		id    int64
		rate  float64
		burst int
	}{
		{l.cfg.KeyPerSecond > 0, l.keys, c.KeyID, l.cfg.KeyPerSecond, l.cfg.KeyBurst},
		{l.cfg.WorkspacePerSecond > 0, l.workspaces, c.WorkspaceID, l.cfg.WorkspacePerSecond, l.cfg.WorkspaceBurst},
	} {
		if !b.on {
			continue
		}
		r := bucket(b.table, b.id, b.rate, b.burst).ReserveN(now, 1)
		if d := r.DelayFrom(now); !r.OK() || d > 0 {
			r.CancelAt(now)
			for _, t := range taken {
				t.CancelAt(now)
			}
			return false, d
		}
		taken = append(taken, r)
	}
	return true, 0
}

// allowAnonymous takes one request from a source's anonymous bucket.
func (l *limiter) allowAnonymous(source string) (bool, time.Duration) {
	if l.cfg.AnonymousPerSecond <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	r := bucket(l.anonymous, source, l.cfg.AnonymousPerSecond, l.cfg.AnonymousBurst).ReserveN(now, 1)
	if d := r.DelayFrom(now); !r.OK() || d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// refusedSource says whether a source has failed to authenticate so often
// that it is refused, and for how long still.
func (l *limiter) refusedSource(source string) (bool, time.Duration) {
	if l.cfg.AuthRefuseAfter <= 0 {
		return false, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.failures[source]
	if f == nil {
		return false, 0
	}
	left := l.cfg.AuthWindow - l.now().Sub(f.last)
	if left <= 0 {
		delete(l.failures, source)
		return false, 0
	}
	return f.count >= l.cfg.AuthRefuseAfter, left
}

// failed records a failed authentication and returns how long to hold its
// answer back: nothing for the first few, then longer with each failure.
func (l *limiter) failed(source string) time.Duration {
	if l.cfg.AuthSlowAfter <= 0 && l.cfg.AuthRefuseAfter <= 0 {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	f := l.failures[source]
	if f == nil || now.Sub(f.last) >= l.cfg.AuthWindow {
		if len(l.failures) >= maxLimiters {
			clear(l.failures)
		}
		f = &authFailures{}
		l.failures[source] = f
	}
	f.count++
	f.last = now
	if l.cfg.AuthSlowAfter <= 0 || f.count <= l.cfg.AuthSlowAfter {
		return 0
	}
	return min(time.Duration(f.count-l.cfg.AuthSlowAfter)*l.cfg.AuthDelay, 2*time.Second)
}

// source is the address a request came from. A proxy's forwarding headers
// are not trusted: behind a proxy every client shares its address, so set
// the anonymous and authentication limits for that.
func source(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// tooMany answers 429 with Retry-After in whole seconds, at least 1.
func tooMany(w http.ResponseWriter, wait time.Duration, what string) {
	secs := int(math.Ceil(wait.Seconds()))
	if secs < 1 || wait == rate.InfDuration {
		secs = 1
	}
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	writeError(w, http.StatusTooManyRequests, gql.CodeLimit, what+"; retry after "+strconv.Itoa(secs)+" s")
}
