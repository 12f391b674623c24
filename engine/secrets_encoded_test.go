package engine_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/internal/calltest"
)

// Issue 10: a partner that echoes the bare token (no "Bearer ") base64- or
// URL-encoded put it in _lastNodeError, the spoken message, events and the
// trace. Every encoded form of it is redacted.
func TestActionEchoedEncodedTokenNeverLeaks(t *testing.T) {
	t.Parallel()
	const token = "Tk9+bare/Token==77x"
	forms := []string{
		base64.StdEncoding.EncodeToString([]byte(token)), base64.RawURLEncoding.EncodeToString([]byte(token)),
		strings.NewReplacer("+", "%2B", "/", "%2F", "=", "%3D").Replace(token),
	}
	echo := newPartner(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":"bad token","b64":"` + forms[0] + `","b64url":"` + forms[1] + `","escaped":"` + forms[2] + `"}`))
	})
	ce := calltest.NewEnv(t, callout.ActionList{1: {ID: 1, Name: "crm", Method: "POST", URL: echo.srv.URL + "/contacts",
		Headers: map[string]string{"Authorization": "Bearer " + token}}})
	edges := []string{ed("e1", "s", "call", ""), ed("e2", "call", "ok", "success"), ed("e3", "call", "sorry", "failure")}
	doc := gdoc([]string{nd("s", "start", `{}`), action(""), say("ok", "ok"), say("sorry", "{{_lastNodeError}}")}, edges)
	var events []engine.Event
	res := newHarness().run(t, doc, engine.Input{Services: ce.Services, Vars: map[string]any{"userMessage": "hello"},
		Observer: engine.ObserverFunc(func(e engine.Event) { events = append(events, e) })})
	if msg, _ := res.Vars["_lastNodeError"].(string); !strings.Contains(msg, "HTTP 401") {
		t.Fatalf("_lastNodeError = %q, want the 401", msg)
	}
	everything := mustJSON(t, map[string]any{"trace": res.NodeTrace, "events": events, "error": res.Error, "vars": res.Vars, "messages": res.Messages})
	for _, f := range append(forms, token) {
		if strings.Contains(everything, strings.TrimRight(f, "=")) {
			t.Errorf("%q leaked: %s", f, everything)
		}
	}
}
