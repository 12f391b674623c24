package server

import (
	"mime"
	"net/http"
	"strconv"

	"github.com/wetel/wetel/server/gql"
)

// requireJSON answers a request /graphql cannot take with what to send
// instead, with an extensions.code, where gqlgen would say only "transport
// not supported": a POST must be JSON (curl -d sends a form unless told),
// and queries also come by GET, a subscription by a WebSocket upgrade.
func requireJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodOptions:
		case http.MethodPost:
			ct := r.Header.Get("Content-Type")
			if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
				msg := "Content-Type must be application/json, not " + quoteMediaType(ct)
				if ct == "" {
					msg = "the request has no Content-Type: send Content-Type: application/json"
				}
				writeError(w, http.StatusUnsupportedMediaType, gql.CodeValidation, msg)
				return
			}
		default:
			w.Header().Set("Allow", "GET, POST, OPTIONS")
			writeError(w, http.StatusMethodNotAllowed, gql.CodeValidation,
				"method "+r.Method+" is not served at /graphql: POST a JSON body {\"query\": …}, or GET with ?query=")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// quoteMediaType shows a Content-Type in an error: its media type only,
// at most 100 bytes of it.
func quoteMediaType(ct string) string {
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		ct = mt
	}
	if len(ct) > 100 {
		ct = ct[:100] + "…"
	}
	return strconv.Quote(ct)
}
