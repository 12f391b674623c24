package dashboard

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
)

func get(t *testing.T, h http.Handler, method, path string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec.Result()
}

func TestRoutes(t *testing.T) {
	h := Handler(node.Default)
	for _, c := range []struct {
		method, path string
		status       int
		ctype        string
	}{
		{"GET", "/", 200, "text/html"},
		{"GET", "/workflows/3", 200, "text/html"},
		{"GET", "/runs/12?x=1", 200, "text/html"},
		{"HEAD", "/sessions", 200, "text/html"},
		{"GET", "/node-types.json", 200, "application/json"},
		{"GET", "/api/nothing", 404, ""},
		{"GET", "/graphqlx", 404, ""},
		{"GET", "/favicon.ico", 404, ""},
		{"GET", "/assets/missing.js", 404, ""},
		{"POST", "/workflows", 405, ""},
	} {
		r := get(t, h, c.method, c.path)
		if r.StatusCode != c.status {
			t.Errorf("%s %s: HTTP %d, want %d", c.method, c.path, r.StatusCode, c.status)
		}
		if c.ctype != "" && !strings.HasPrefix(r.Header.Get("Content-Type"), c.ctype) {
			t.Errorf("%s %s: Content-Type %q, want %s", c.method, c.path, r.Header.Get("Content-Type"), c.ctype)
		}
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("%s %s: CSP %q", c.method, c.path, csp)
		}
		if r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s %s: allows another origin", c.method, c.path)
		}
	}
}

// TestIndexLoadsOnlyOwnFiles: every script and stylesheet index.html
// names is served by the binary, and none is inline (the CSP forbids it).
func TestIndexLoadsOnlyOwnFiles(t *testing.T) {
	h := Handler(node.Default)
	body, _ := io.ReadAll(get(t, h, "GET", "/").Body)
	if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]`).Match(body) {
		t.Error("index.html has an inline script")
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllSubmatch(body, -1)
	if len(refs) < 2 {
		t.Fatalf("index.html names %d files, want a script and a stylesheet:\n%s", len(refs), body)
	}
	for _, m := range refs {
		ref := string(m[1])
		if ref == "data:," {
			continue // the empty favicon, so the browser asks for no /favicon.ico
		}
		if !strings.HasPrefix(ref, "/assets/") {
			t.Errorf("index.html loads %q, not one of its own assets", ref)
			continue
		}
		r := get(t, h, "GET", ref)
		if r.StatusCode != 200 || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: HTTP %d, Cache-Control %q", ref, r.StatusCode, r.Header.Get("Cache-Control"))
		}
	}
}

func TestNodeTypes(t *testing.T) {
	var got []typeInfo
	if err := json.NewDecoder(get(t, Handler(node.Default), "GET", "/node-types.json").Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	by := map[string]typeInfo{}
	for _, x := range got {
		by[x.Type] = x
	}
	if len(by) != len(node.Default.Types()) {
		t.Errorf("%d types, want %d", len(by), len(node.Default.Types()))
	}
	for typ, want := range map[string]string{"condition": "bool", "switch": "case", "router": "value", "await_reply": "outcome", "response": "all"} {
		if by[typ].Routing != want {
			t.Errorf("%s: routing %q, want %q", typ, by[typ].Routing, want)
		}
	}
	if a := by["await_reply"]; !a.Pauses || strings.Join(a.Outcomes, ",") != "answered,unanswered" {
		t.Errorf("await_reply: %+v", a)
	}
	if !by["action"].FailureEdges || by["response"].FailureEdges {
		t.Errorf("failure edges: action %v, response %v", by["action"].FailureEdges, by["response"].FailureEdges)
	}
}
