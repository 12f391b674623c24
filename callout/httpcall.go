package callout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/outbound"
	"github.com/wetel/wetel/retry"
)

// MaxResponseBytes bounds the body of an answer an HTTP call reads; a
// longer one fails the call as INVALID_DATA.
const MaxResponseBytes = 10 << 20

// errorBodyBytes bounds how much of a failed answer's body its error quotes
// (the service's own message, which the seed lets _lastNodeError carry).
const errorBodyBytes = 512

// userAgent is sent when the request sets none.
const userAgent = "wetel"

// HTTPRequest is one rendered HTTP request.
type HTTPRequest struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte // nil for none
}

// HTTPAnswer is what a successful (2xx) call answered.
type HTTPAnswer struct {
	// Value is what the node's outputVar holds: {status, headers, data},
	// headers with lower-cased names and their first value, data the
	// parsed JSON body or the text (PLATFORM §6).
	Value map[string]any
	// Body is the raw body, kept only for a call made with Raw.
	Body []byte
}

// HTTPCall is one HTTP call of a node with its retry policy.
type HTTPCall struct {
	// Label starts every error message: `action node "n": custom action 41`.
	Label   string
	Request HTTPRequest
	Policy  retry.Policy
	// Timeout bounds each attempt, reading the body included.
	Timeout time.Duration
	// Secrets are removed from every error message (header values, the
	// URL's password and query values).
	Secrets []string
	// Raw keeps the body as bytes (fetchAsBase64Var) instead of parsing it;
	// data is then null.
	Raw bool
}

// CallHTTP makes the call of x's node through the run's HTTPKey client
// under its retry policy (see Retry). A failure is a *node.CallError whose
// message is redacted.
func CallHTTP(ctx context.Context, x *node.Exec, c HTTPCall) (HTTPAnswer, error) {
	client := httpClient(x)
	if client == nil {
		return HTTPAnswer{}, errNoHTTP(x)
	}
	var ans HTTPAnswer
	call := retry.Call{Method: c.Request.Method, Header: c.Request.Header}
	clock := func() time.Time { return now(x) }
	err := Retry(ctx, x, c.Policy, call, c.Timeout, c.Label, c.Secrets, func(actx context.Context, _ int) error {
		a, err := SendHTTP(actx, client, c.Request, c.Raw, clock)
		if err == nil {
			ans = a
		}
		return err
	})
	return ans, err
}

// SendHTTP makes one attempt of r. A non-2xx answer is a *failure.Error
// with its HTTPStatus (and, on a 429 or 503, the Retry-After it asked for);
// a body that is larger than MaxResponseBytes, or that says it is JSON and
// is not, is INVALID_DATA. ctx bounds the whole attempt, body included.
func SendHTTP(ctx context.Context, c *outbound.Client, r HTTPRequest, raw bool, now func() time.Time) (HTTPAnswer, error) {
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return HTTPAnswer{}, &failure.Error{Code: failure.InvalidData, Message: "the request cannot be made", Err: err}
	}
	for k, vs := range r.Header {
		req.Header[http.CanonicalHeaderKey(k)] = vs
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", userAgent)
	}
	if r.Body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return HTTPAnswer{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return HTTPAnswer{}, statusError(req, resp, now())
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return HTTPAnswer{}, &failure.Error{Code: failure.Classify(err), Message: "reading the answer of " + display(req), Err: err, Sent: true}
	}
	if len(data) > MaxResponseBytes {
		return HTTPAnswer{}, &failure.Error{Code: failure.InvalidData, HTTPStatus: resp.StatusCode, Sent: true,
			Message: fmt.Sprintf("the answer of %s is larger than %d MB", display(req), MaxResponseBytes>>20)}
	}
	ans := HTTPAnswer{Value: map[string]any{"status": resp.StatusCode, "headers": answerHeaders(resp.Header), "data": nil}}
	if raw {
		ans.Body = data
		return ans, nil
	}
	v, err := decodeBody(resp.Header.Get("Content-Type"), data)
	if err != nil {
		return HTTPAnswer{}, &failure.Error{Code: failure.InvalidData, HTTPStatus: resp.StatusCode, Sent: true,
			Message: "the answer of " + display(req) + " cannot be parsed", Err: err}
	}
	ans.Value["data"] = v
	return ans, nil
}

// statusError is the failure of a non-2xx answer, quoting the start of its body.
func statusError(req *http.Request, resp *http.Response, now time.Time) error {
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	msg := fmt.Sprintf("%s answered HTTP %d", display(req), resp.StatusCode)
	if text := http.StatusText(resp.StatusCode); text != "" {
		msg += " " + text
	}
	if quote := strings.TrimSpace(strings.ToValidUTF8(string(head[:min(len(head), errorBodyBytes)]), "\uFFFD")); quote != "" {
		msg += ": " + quote
	}
	fe := &failure.Error{HTTPStatus: resp.StatusCode, Message: msg, Sent: true}
	if resp.StatusCode < 400 {
		fe.Code = failure.Unknown // a redirect that was not followed, or an informational answer
	}
	// Seed: "A Retry-After on a 429 or 503 is honoured".
	return retry.WithRetryAfter(fe, resp.StatusCode, resp.Header, now)
}

// display names a request in messages: method, scheme, host and path, with
// no credentials and no query.
func display(req *http.Request) string {
	u := *req.URL
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return req.Method + " " + u.String()
}

// answerHeaders keeps each header's first value under its lower-cased
// name. Set-Cookie is left out: a partner's session cookie is a credential
// and would be copied into prompts and snapshots.
func answerHeaders(h http.Header) map[string]any {
	out := make(map[string]any, len(h))
	for k, vs := range h {
		if len(vs) == 0 || strings.EqualFold(k, "Set-Cookie") {
			continue
		}
		out[strings.ToLower(k)] = vs[0]
	}
	return out
}

// decodeBody is an answer's data: the parsed JSON when the Content-Type
// says JSON (an error when it is not), the parsed JSON or else the text
// when there is no Content-Type, the text otherwise; null for no body.
func decodeBody(contentType string, body []byte) (any, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, nil
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	isJSON := mt == "application/json" || strings.HasSuffix(mt, "+json")
	if isJSON || (mt == "" && json.Valid(body)) {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return strings.ToValidUTF8(string(body), "\uFFFD"), nil
}

// benignHeaders are request headers whose values are never secret, so
// they are not removed from messages.
var benignHeaders = map[string]bool{"Content-Type": true, "Accept": true, "User-Agent": true, "Content-Length": true, "Accept-Encoding": true}

// CallSecrets are the values an HTTP call's error messages must not show:
// its header values (but for a few that are never secret), and the
// user name, password and query values of its URL.
func CallSecrets(header http.Header, rawURL string) []string {
	var out []string
	for k, vs := range header {
		if !benignHeaders[http.CanonicalHeaderKey(k)] {
			out = append(out, vs...)
		}
	}
	if u, err := url.Parse(rawURL); err == nil {
		if u.User != nil {
			out = append(out, u.User.Username())
			if pw, ok := u.User.Password(); ok {
				out = append(out, pw)
			}
		}
		for _, vs := range u.Query() {
			out = append(out, vs...)
		}
	}
	return out
}
