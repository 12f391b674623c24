package server

import (
	"context"
	"strings"
	"testing"

	"github.com/wetel/wetel/store"
)

// Issue 10: credentials in a custom-action URL were stored in clear and
// shown to every key. A URL holding a user name, a password or a
// secret-looking query value is refused at save, pointing to headers; an
// http connector's URL likewise, before anything is connected. A row stored
// before the check is shown masked.
func TestURLCredentialsRefused(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	for _, u := range []string{"http://user:PW-secret@partner.example.com/x", "https://partner.example.com/x?page=1&api_key=K-secret"} {
		es := wantCode(t, ts.c, "VALIDATION", `mutation($u: String!) { createCustomAction(input: {name: "a", url: $u}) { id } }`, map[string]any{"u": u})
		if msg := es.Error(); !strings.Contains(msg, "url:") || !strings.Contains(msg, "header") || strings.Contains(msg, "secret") {
			t.Errorf("%s: refused with %q, want the field and a pointer to headers", u, msg)
		}
		wantCode(t, ts.c, "VALIDATION", `mutation($u: String!) { registerMcpConnector(input: {name: "c", transport: "http", url: $u}) { id } }`, map[string]any{"u": u})
	}
	do(t, ts.c, `mutation { createCustomAction(input: {name: "ok", url: "https://partner.example.com/x?page=1&key={{vars.k}}"}) { id } }`, nil, nil)

	// A row stored before the check.
	if _, err := ts.s.store.PutCustomAction(context.Background(), store.CustomAction{WorkspaceID: 1, Name: "old", Method: "GET",
		URL: "http://user:PW-secret@partner.example.com/x?api_key=K-secret&page=2"}); err != nil {
		t.Fatal(err)
	}
	var list struct{ CustomActions []struct{ Name, URL string } }
	do(t, ts.c, `{ customActions { name url } }`, nil, &list)
	for _, a := range list.CustomActions {
		if strings.Contains(a.URL, "secret") {
			t.Errorf("customActions shows %s's url %q", a.Name, a.URL)
		}
		if a.Name == "old" && a.URL != "http://user:****@partner.example.com/x?api_key=****&page=2" {
			t.Errorf("old url shown as %q", a.URL)
		}
	}
}
