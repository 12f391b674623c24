package engine_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/internal/calltest"
	"github.com/wetel/wetel/internal/testpeer"
	"github.com/wetel/wetel/retry"
	"github.com/wetel/wetel/vocab"
)

// The seed's retry rules against real partners on loopback ports: which
// failures are resent (a request counter shows exactly which reached the
// partner), how long the node waited, and what the trace row carries.
func TestActionAgainstPartners(t *testing.T) {
	t.Parallel()
	slow := func(w http.ResponseWriter, r *http.Request, _ int) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	status := func(code int, header ...string) func(http.ResponseWriter, *http.Request, int) {
		return func(w http.ResponseWriter, _ *http.Request, _ int) {
			for i := 0; i+1 < len(header); i += 2 {
				w.Header().Set(header[i], header[i+1])
			}
			w.WriteHeader(code)
			w.Write([]byte(`{"error":"partner says no"}`))
		}
	}
	// thenOK answers the first n requests with first, then 200.
	thenOK := func(n int, first func(http.ResponseWriter, *http.Request, int)) func(http.ResponseWriter, *http.Request, int) {
		return func(w http.ResponseWriter, r *http.Request, i int) {
			if i <= n {
				first(w, r, i)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"reference":"C-1"}`))
		}
	}
	cases := []struct {
		name     string
		handler  func(http.ResponseWriter, *http.Request, int) // nil: the partner is down
		method   string
		extra    string
		status   string
		outcome  string
		attempts string
		hits     int
		waits    []time.Duration
	}{
		{name: "down: UNREACHABLE, resent at once by the built-in policy", method: "POST",
			status: "FAILED_HANDLED", outcome: "exhausted", attempts: "1:UNREACHABLE/0/0 2:UNREACHABLE/0/0 3:UNREACHABLE/0/0"},
		{name: "429 with Retry-After: honoured", handler: thenOK(1, status(429, "Retry-After", "1")), method: "POST",
			extra:  `,"retry":{"maxAttempts":3,"maxDelayMs":2000}`,
			status: "COMPLETED", outcome: "succeeded_after_retry", attempts: "1:RATE_LIMITED/429/1000", hits: 2, waits: []time.Duration{time.Second}},
		{name: "429 asking for longer than maxDelayMs: gives up", handler: status(429, "Retry-After", "10"), method: "POST",
			extra:  `,"retry":{"maxAttempts":3,"maxDelayMs":2000}`,
			status: "FAILED_HANDLED", outcome: "retry_after_too_long", attempts: "1:RATE_LIMITED/429/0", hits: 1},
		{name: "429 with Retry-After under the built-in policy, which never waits", handler: status(429, "Retry-After", "1"), method: "POST",
			status: "FAILED_HANDLED", outcome: "retry_after_too_long", attempts: "1:RATE_LIMITED/429/0", hits: 1},
		{name: "429 without Retry-After: a POST is resent, it was not processed", handler: thenOK(2, status(429)), method: "POST",
			status: "COMPLETED", outcome: "succeeded_after_retry", attempts: "1:RATE_LIMITED/429/0 2:RATE_LIMITED/429/0", hits: 3},
		{name: "503 on a POST: not resent", handler: status(503), method: "POST",
			status: "FAILED_HANDLED", outcome: "not_idempotent", attempts: "1:UPSTREAM_ERROR/503/0", hits: 1},
		{name: "503 on a GET: resent", handler: status(503), method: "GET",
			status: "FAILED_HANDLED", outcome: "exhausted", attempts: "1:UPSTREAM_ERROR/503/0 2:UPSTREAM_ERROR/503/0 3:UPSTREAM_ERROR/503/0", hits: 3},
		{name: "503 with Retry-After on an idempotent call: honoured", handler: thenOK(1, status(503, "Retry-After", "2")), method: "POST",
			extra:  `,"retry":{"maxAttempts":2,"on":["UPSTREAM_ERROR"],"idempotent":true}`,
			status: "COMPLETED", outcome: "succeeded_after_retry", attempts: "1:UPSTREAM_ERROR/503/2000", hits: 2, waits: []time.Duration{2 * time.Second}},
		{name: "slow: TIMEOUT, a POST is not resent", handler: slow, method: "POST", extra: `,"timeoutMs":200`,
			status: "FAILED_HANDLED", outcome: "not_idempotent", attempts: "1:TIMEOUT/0/0", hits: 1},
		{name: "slow, marked idempotent: resent after the backoff", handler: slow, method: "POST",
			extra:  `,"timeoutMs":200,"retry":{"maxAttempts":2,"on":["TIMEOUT"],"idempotent":true,"delayMs":100,"jitter":false}`,
			status: "FAILED_HANDLED", outcome: "exhausted", attempts: "1:TIMEOUT/0/100 2:TIMEOUT/0/0", hits: 2, waits: []time.Duration{100 * time.Millisecond}},
		{name: "4xx: REJECTED, never resent, even a GET", handler: status(404), method: "GET",
			status: "FAILED_HANDLED", outcome: "not_retryable", attempts: "1:REJECTED/404/0", hits: 1},
		{name: "an answer that says JSON and is not: INVALID_DATA", method: "GET",
			handler: func(w http.ResponseWriter, _ *http.Request, _ int) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`{"reference": C-1`))
			},
			status: "FAILED_HANDLED", outcome: "not_retryable", attempts: "1:INVALID_DATA/200/0", hits: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url, p := testpeer.ClosedPort(t), (*partner)(nil)
			if tc.handler != nil {
				p = newPartner(t, tc.handler)
				url = p.srv.URL
			}
			ce := calltest.NewEnv(t, callout.ActionList{1: {ID: 1, Name: "claims", Method: tc.method, URL: url + "/claims"}})
			res := newHarness().run(t, callGraph(action(tc.extra)), engine.Input{Services: ce.Services})
			row := callRow(t, res)
			if row.Status != tc.status || calltest.Outcome(row) != tc.outcome || calltest.Attempts(row) != tc.attempts {
				t.Fatalf("row %s, retryOutcome %q, attempts %q; want %s, %q, %q (%s)",
					row.Status, calltest.Outcome(row), calltest.Attempts(row), tc.status, tc.outcome, tc.attempts, res.Vars["_lastNodeError"])
			}
			if p != nil && p.count() != tc.hits {
				t.Errorf("the partner received %d requests, want %d", p.count(), tc.hits)
			}
			if got := ce.Waited(); len(got) != len(tc.waits) || (len(got) > 0 && got[0] != tc.waits[0]) {
				t.Errorf("waits %v, want %v", got, tc.waits)
			}
			// Seed: "No error text or response body" on the row.
			if row.Error != "" || strings.Contains(mustJSON(t, res.NodeTrace), "partner says no") {
				t.Errorf("the trace carries error text: %s", mustJSON(t, res.NodeTrace))
			}
			if tc.status == "FAILED_HANDLED" {
				if code := res.Vars["_lastNodeErrorCode"]; code != row.ErrorClass || texts(res)[0] != code {
					t.Errorf("_lastNodeErrorCode %v, row errorClass %s", code, row.ErrorClass)
				}
				if _, written := res.Vars["out"]; written {
					t.Error("a failed node wrote its outputVar")
				}
			}
		})
	}
}

// A successful call: the URL template escapes each value for where it
// sits, the body keeps user text inside its JSON strings, the action's
// headers are sent, and outputVar holds {status, headers, data}.
func TestActionRequestAndAnswer(t *testing.T) {
	t.Parallel()
	p := newPartner(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "rq-7")
		w.Header().Add("Set-Cookie", "session=s3cr3t-cookie")
		w.Write([]byte(`{"reference":"C-9","lines":[{"sku":"A1"}]}`))
	})
	ce := calltest.NewEnv(t, callout.ActionList{1: {ID: 1, Name: "claims", Method: "post", URL: p.srv.URL + "/orders/{{orderId}}/claims?q={{query}}&v=2",
		Headers: map[string]string{"X-Api-Key": "k-123456"}}})
	doc := gdoc([]string{nd("s", "start", `{}`),
		action(`,"bodyTemplate":"{\"customerRef\":\"{{userMessage}}\",\"qty\":\"{{qty}}\",\"fixed\":true}"`),
		say("ok", "Reference {{out.data.reference}}, first sku {{out.data.lines.0.sku}}, request {{out.headers.x-request-id}}, status {{out.status}}"),
		say("sorry", "{{_lastNodeError}}")},
		[]string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success"), ed("e3", "call", "sorry", "failure")})
	vars := map[string]any{"userMessage": `x", "admin": true, "y": "`, "qty": 3.0, "orderId": "A/B ..", "query": "x&y=z #1"}
	res := newHarness().run(t, doc, engine.Input{Services: ce.Services, Vars: vars})
	if path(res) != "s:COMPLETED call:COMPLETED ok:COMPLETED" {
		t.Fatalf("trace %s: %v", path(res), res.Vars["_lastNodeError"])
	}
	if got := texts(res)[0]; got != "Reference C-9, first sku A1, request rq-7, status 200" {
		t.Errorf("reply %q", got)
	}
	got := p.request(0)
	if got.Method != "POST" || got.Path != "/orders/A%2FB%20../claims" || got.RawQuery != "q=x%26y%3Dz+%231&v=2" {
		t.Errorf("request %s %s ? %s", got.Method, got.Path, got.RawQuery)
	}
	if got.Body != `{"customerRef":"x\", \"admin\": true, \"y\": \"","fixed":true,"qty":3}` {
		t.Errorf("body %s", got.Body)
	}
	if got.Header.Get("X-Api-Key") != "k-123456" || got.Header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", got.Header)
	}
	out := res.Vars["out"].(map[string]any)
	if _, leaked := out["headers"].(map[string]any)["set-cookie"]; leaked {
		t.Error("the partner's Set-Cookie reached the context")
	}
	if row := callRow(t, res); row.TraceDetail != nil {
		t.Errorf("a first-attempt success carries retry fields: %+v", row.TraceDetail)
	}
}

// A body that is not JSON is data as text; fetchAsBase64Var keeps bytes.
func TestActionTextAndBinaryAnswers(t *testing.T) {
	t.Parallel()
	p := newPartner(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.URL.Path == "/pdf" {
			w.Header().Set("Content-Type", "application/pdf")
			w.Write([]byte{0x25, 0x50, 0x44, 0x46, 0xff, 0x00})
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("accepted, thanks"))
	})
	actions := callout.ActionList{1: {ID: 1, Method: "GET", URL: p.srv.URL + "/text"}, 2: {ID: 2, Method: "GET", URL: p.srv.URL + "/pdf"}}
	ce := calltest.NewEnv(t, actions)
	res := newHarness().run(t, callGraph(action("")), engine.Input{Services: ce.Services})
	out, _ := res.Vars["out"].(map[string]any)
	if out == nil || out["data"] != "accepted, thanks" || out["status"] != 200 {
		t.Fatalf("out = %#v (%s)", res.Vars["out"], path(res))
	}
	res = newHarness().run(t, callGraph(nd("call", "action", `{"customActionId":2,"fetchAsBase64Var":"pdf","outputVar":"out"}`)), engine.Input{Services: ce.Services})
	if res.Vars["pdf"] != "JVBERv8A" {
		t.Errorf("pdf = %v (%s)", res.Vars["pdf"], path(res))
	}
	if out := res.Vars["out"].(map[string]any); out["data"] != nil || out["headers"].(map[string]any)["content-type"] != "application/pdf" {
		t.Errorf("out = %v", out)
	}
}

// A redirect to a private address is refused before sending (UNREACHABLE,
// retryOutcome refused, not resent although an action's built-in policy
// retries UNREACHABLE) and the internal service behind it receives nothing.
func TestActionRedirectToPrivateAddressRefused(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	var internalHits atomic.Int32
	internal := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { internalHits.Add(1) }))
	internal.Listener.Close()
	internal.Listener = l
	internal.Start()
	t.Cleanup(internal.Close)
	p := newPartner(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Redirect(w, r, internal.URL+"/admin", http.StatusFound)
	})
	ce := calltest.NewEnv(t, callout.ActionList{1: {ID: 1, Method: "GET", URL: p.srv.URL + "/start"}})
	res := newHarness().run(t, callGraph(action("")), engine.Input{Services: ce.Services})
	row := callRow(t, res)
	if row.Status != "FAILED_HANDLED" || row.ErrorClass != "UNREACHABLE" || calltest.Outcome(row) != "refused" || calltest.Attempts(row) != "1:UNREACHABLE/0/0" {
		t.Fatalf("row %+v %s", row, calltest.Attempts(row))
	}
	if internalHits.Load() != 0 || p.count() != 1 {
		t.Errorf("internal service hit %d times, partner %d", internalHits.Load(), p.count())
	}
	if msg := res.Vars["_lastNodeError"].(string); !strings.Contains(msg, "127.0.0.2") {
		t.Errorf("_lastNodeError does not say what was refused: %s", msg)
	}
}

// Seed: "An interrupt stops retrying", and "The run's own deadline always
// applies too".
func TestActionRetryStopsOnInterruptAndDeadline(t *testing.T) {
	t.Parallel()
	policy := `,"retry":{"maxAttempts":4,"on":["UPSTREAM_ERROR"],"idempotent":true,"backoff":"fixed","delayMs":800,"jitter":false}`
	unavailable := func(w http.ResponseWriter, _ *http.Request, _ int) { w.WriteHeader(503) }
	t.Run("interrupt during the wait", func(t *testing.T) {
		t.Parallel()
		p := newPartner(t, unavailable)
		ce := calltest.NewEnv(t, callout.ActionList{1: {ID: 1, Method: "POST", URL: p.srv.URL}})
		stop := make(chan struct{})
		callout.WaitKey.Provide(ce.Services, func(ctx context.Context, _ time.Duration) error {
			close(stop) // a newer message arrives while the node waits
			<-ctx.Done()
			return ctx.Err()
		})
		res := newHarness().run(t, callGraph(action(policy)), engine.Input{Services: ce.Services, Interrupt: stop})
		row := callRow(t, res)
		if calltest.Outcome(row) != "interrupted" || calltest.Attempts(row) != "1:UPSTREAM_ERROR/503/0" || p.count() != 1 {
			t.Errorf("row %s %s %s, %d requests", row.Status, calltest.Outcome(row), calltest.Attempts(row), p.count())
		}
		if res.Status != vocab.RunInterrupted {
			t.Errorf("run %s, want INTERRUPTED before the next dispatch", res.Status)
		}
	})
	t.Run("the run's deadline", func(t *testing.T) {
		t.Parallel()
		p := newPartner(t, unavailable)
		ce := calltest.NewEnv(t, callout.ActionList{1: {ID: 1, Method: "POST", URL: p.srv.URL}})
		h := newHarness()
		h.lim.MaxDuration = time.Second
		callout.WaitKey.Provide(ce.Services, retry.FakeWait(h.clock))
		res := h.run(t, callGraph(action(policy)), engine.Input{Services: ce.Services})
		row := callRow(t, res)
		if calltest.Outcome(row) != "deadline" || calltest.Attempts(row) != "1:UPSTREAM_ERROR/503/800 2:UPSTREAM_ERROR/503/0" || p.count() != 2 {
			t.Errorf("row %s %s %s, %d requests", row.Status, calltest.Outcome(row), calltest.Attempts(row), p.count())
		}
	})
}
