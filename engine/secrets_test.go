package engine_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/internal/calltest"
	"github.com/wetel/wetel/internal/testpeer"
)

// Credentials of a custom action, in its headers and in its URL's userinfo
// and query, and echoed back by the partner in an error body, appear in no
// trace row, no event, no run error and not in _lastNodeError (PLATFORM
// §11), while the error still says what went wrong.
func TestActionSecretsNeverLeak(t *testing.T) {
	t.Parallel()
	secrets := []string{"tok-hdr-7f3a9c1e55", "apikey-2b8d4e6f10", "pw-9e1d3c5a77", "qk-4c6e8a0b22", "sig-AbCdEf123", "svc-user"}
	echo := newPartner(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":"invalid credentials","got":"` + r.Header.Get("Authorization") + `","key":"` + r.Header.Get("X-Api-Key") +
			`","query":"` + r.URL.RawQuery + `","user":"svc-user"}`))
	})
	withCredentials := func(base string) callout.CustomAction {
		base = strings.Replace(base, "http://", "http://svc-user:pw-9e1d3c5a77@", 1)
		return callout.CustomAction{ID: 1, Name: "crm", Method: "POST", URL: base + "/contacts?api_key=qk-4c6e8a0b22&sig=sig-AbCdEf123&ref={{userMessage}}",
			Headers: map[string]string{"Authorization": "Bearer tok-hdr-7f3a9c1e55", "X-Api-Key": "apikey-2b8d4e6f10"}}
	}
	cases := []struct {
		name, url, code, says string
		handled               bool
	}{
		{"echoed in a 401 body, handled", echo.srv.URL, "REJECTED", "HTTP 401", true},
		{"echoed in a 401 body, failing the run", echo.srv.URL, "REJECTED", "HTTP 401", false},
		{"in a connection error's URL", testpeer.ClosedPort(t), "UNREACHABLE", "connection refused", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ce := calltest.NewEnv(t, callout.ActionList{1: withCredentials(tc.url)})
			edges := []string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success"), ed("e3", "call", "sorry", "failure")}
			if !tc.handled {
				edges[1], edges[2] = ed("e2", "call", "ok", ""), ed("e3", "ok", "sorry", "")
			}
			// The failure branch even says _lastNodeError to the user, which
			// the seed advises against: it must still be redacted.
			doc := gdoc([]string{nd("s", "start", `{}`), action(""), say("ok", "ok"), say("sorry", "{{_lastNodeError}}")}, edges)
			var events []engine.Event
			res := newHarness().run(t, doc, engine.Input{Services: ce.Services, Vars: map[string]any{"userMessage": "hello"},
				Observer: engine.ObserverFunc(func(e engine.Event) { events = append(events, e) })})
			row := callRow(t, res)
			if row.ErrorClass != tc.code {
				t.Fatalf("errorClass %s, want %s (%v %s)", row.ErrorClass, tc.code, res.Vars["_lastNodeError"], res.Error)
			}
			msg := res.Error
			if tc.handled {
				msg, _ = res.Vars["_lastNodeError"].(string)
			}
			if !strings.Contains(msg, tc.says) || !strings.Contains(msg, "custom action 1 (crm)") {
				t.Errorf("the error no longer says what happened: %s", msg)
			}
			everything := mustJSON(t, map[string]any{"trace": res.NodeTrace, "events": events, "error": res.Error, "vars": res.Vars, "messages": res.Messages})
			for _, s := range secrets {
				if strings.Contains(everything, s) {
					t.Errorf("%q leaked: %s", s, everything)
				}
			}
		})
	}
}
