// Package dashboard serves the web dashboard that `wetel serve` embeds: the
// Vite build of ../../web, committed under dist/, so the binary needs
// nothing else to serve it (no CDN, no second server). Rebuild it with
// `npm ci && npm run build` in web/; TestBuildIsFresh fails when the
// committed build is older than its sources.
package dashboard

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/wetel/wetel/node"
)

//go:embed dist
var dist embed.FS

// Security headers of every dashboard response. The dashboard loads only
// its own scripts and styles and talks only to its own origin; Vite's build
// has no inline script, so script-src 'self' holds. Nothing here allows
// another origin (no Access-Control-Allow-Origin): the API answers only
// pages of the origin that embeds it.
var headers = map[string]string{
	"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
	"X-Content-Type-Options":       "nosniff",
	"Referrer-Policy":              "no-referrer",
	"X-Frame-Options":              "DENY",
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
}

// Handler serves the dashboard: its files, /node-types.json (what the
// editor needs to know about edge labels), and index.html for every page
// path, so a reload or a shared link to /workflows/3 opens that page.
func Handler(reg *node.Registry) http.Handler {
	root, err := fs.Sub(dist, "dist")
	if err != nil {
		// The embed pattern guarantees dist exists; this cannot happen.
		return http.NotFoundHandler()
	}
	index, _ := fs.ReadFile(root, "index.html")
	types := nodeTypes(reg)
	files := http.FileServerFS(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		switch {
		case p == "/node-types.json":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write(types)
		case strings.HasPrefix(p, "/assets/"):
			// File names carry their content hash: cache them for good.
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			files.ServeHTTP(w, r)
		case isPage(p):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write(index)
		default:
			http.NotFound(w, r)
		}
	})
}

// isPage reports whether p is a path of the dashboard's own router rather
// than a file or an API route that does not exist.
func isPage(p string) bool {
	if strings.HasPrefix(p, "/api/") || p == "/api" || strings.HasPrefix(p, "/graphql") {
		return false
	}
	return !strings.Contains(path.Base(p), ".")
}

// typeInfo is what the editor knows about a node type: how its edges are
// routed, so an edge label can be chosen from the ones the engine follows.
type typeInfo struct {
	Type         string   `json:"type"`
	Summary      string   `json:"summary"`
	Routing      string   `json:"routing"`
	Outcomes     []string `json:"outcomes,omitempty"`
	FailureEdges bool     `json:"failureEdges"`
	Pauses       bool     `json:"pauses"`
}

var routingNames = map[node.Routing]string{
	node.RouteAll:     "all",
	node.RouteValue:   "value",
	node.RouteBool:    "bool",
	node.RouteCase:    "case",
	node.RouteOutcome: "outcome",
}

func nodeTypes(reg *node.Registry) []byte {
	var out []typeInfo
	for _, t := range reg.Types() {
		s, ok := reg.Lookup(t)
		if !ok {
			continue
		}
		r, ok := routingNames[s.Routing]
		if !ok {
			r = "all"
		}
		out = append(out, typeInfo{Type: s.Type, Summary: s.Summary, Routing: r, Outcomes: s.Outcomes, FailureEdges: s.FailureEdges, Pauses: s.Pauses})
	}
	b, _ := json.Marshal(out)
	return b
}
