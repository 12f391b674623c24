package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/server/gql"
)

// maxBodyExcerpt bounds how much of a malformed body an error quotes.
const maxBodyExcerpt = 64

// postTransport is gqlgen's POST transport with its own answer to a body
// that is not a GraphQL request: gqlgen's quotes the whole body back, which
// may be megabytes, or a credential the client pasted in the wrong place.
type postTransport struct{ transport.POST }

// checkedRequest is what a POST body must decode to. Variables and
// extensions stay raw: only their shape is checked here, and gqlgen
// decodes them once afterwards.
type checkedRequest struct {
	Query         string          `json:"query"`
	OperationName string          `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
	Extensions    json.RawMessage `json:"extensions"`
}

// Do answers a malformed body with VALIDATION and a short excerpt, and
// hands a well-formed one to gqlgen.
func (t postTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, gql.CodeLimit, "the request body is over the "+strconv.FormatInt(tooBig.Limit, 10)+"-byte limit")
			return
		}
		writeError(w, http.StatusBadRequest, gql.CodeValidation, "reading the request body: "+err.Error())
		return
	}
	if err := checkBody(body); err != nil {
		writeError(w, http.StatusBadRequest, gql.CodeValidation, "the request body is not a GraphQL request ("+err.Error()+"); it starts "+excerpt(body))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	t.POST.Do(w, r, exec)
}

func checkBody(body []byte) error {
	var req checkedRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return err
	}
	for name, raw := range map[string]json.RawMessage{"variables": req.Variables, "extensions": req.Extensions} {
		if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] != '{' && string(raw) != "null" {
			return errors.New(name + ": must be an object")
		}
	}
	return nil
}

// excerpt quotes the first maxBodyExcerpt bytes of body, cut on a
// character boundary, with anything that looks secret redacted.
func excerpt(body []byte) string {
	n, more := len(body), ""
	if n > maxBodyExcerpt {
		n, more = maxBodyExcerpt, "…"
		for n > 0 && !utf8.RuneStart(body[n]) {
			n--
		}
	}
	return strconv.Quote(failure.Redact(string(body[:n]))) + more
}
