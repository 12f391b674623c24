package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/wetel/wetel/artifact"
	"github.com/wetel/wetel/server/gql"
	"github.com/wetel/wetel/store"
)

// artifactContent serves an artifact's content to its own workspace
// (GET /api/artifacts/{id}); another workspace's id is NOT_FOUND, as an
// unknown one is. It is always a download: an html or markdown artifact
// a model wrote must never render as a page of this origin.
func (s *Server) artifactContent(w http.ResponseWriter, r *http.Request) {
	c, id, ok := callerAndID(w, r, "artifact")
	if !ok {
		return
	}
	a, err := s.store.Artifact(r.Context(), c.WorkspaceID, id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, gql.CodeNotFound, "artifact "+strconv.FormatInt(id, 10)+" not found")
		return
	}
	if err != nil {
		s.log.ErrorContext(r.Context(), "reading an artifact", "err", err)
		writeError(w, http.StatusInternalServerError, gql.CodeInternal, "internal error")
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("Content-Length", strconv.Itoa(len(a.Data)))
	h.Set("Content-Disposition", disposition(a.Name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(a.Data)
	}
}

// disposition is an attachment header whose plain filename is ASCII with
// nothing a header could be broken with, and whose filename* (RFC 6266)
// keeps the name's own letters, percent-encoded.
func disposition(name string) string {
	v := `attachment; filename="` + artifact.SafeFilename(name) + `"`
	if name != "" {
		v += "; filename*=UTF-8''" + attrEscape(name)
	}
	return v
}

// attrEscape percent-encodes every byte of s but RFC 8187's attr-char.
func attrEscape(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)*3)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}
