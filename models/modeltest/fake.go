// Package modeltest is a fake OpenAI-compatible server on 127.0.0.1 for
// tests: POST /v1/chat/completions with and without SSE streaming, in the
// real wire format, answering what the test's function says.
package modeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/wetel/wetel/outbound"
)

// Request is what the fake received: the chat completion body's fields
// the tests look at.
type Request struct {
	Model       string   `json:"model"`
	Messages    []Msg    `json:"messages"`
	Stream      bool     `json:"stream"`
	MaxTokens   int      `json:"max_tokens"`
	Temperature *float64 `json:"temperature"`
	// ResponseFormat is the structured-output request, when any.
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	Authorization string `json:"-"`
}

// Msg is one chat message of a request.
type Msg struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Answer is what the fake replies.
type Answer struct {
	// Text is the reply; streamed, it is sent as Chunks, else word by word.
	Text   string
	Chunks []string
	// Status, when not 0 or 200, is an error answer with an OpenAI error body.
	Status     int
	RetryAfter string
	// Garbage answers 200 with a body that is not a chat completion.
	Garbage bool
	// Cut closes a stream after its chunks without finishing it.
	Cut bool
	// Hang waits, after the chunks (streaming) or before answering, until
	// the request is cancelled or Release is closed.
	Hang    bool
	Release <-chan struct{}
	// Endless streams chunks until the client goes away.
	Endless bool
	// TokensIn and TokensOut are the usage reported.
	TokensIn, TokensOut int
}

// Server is a running fake.
type Server struct {
	URL string // the base URL, ending in /v1
	srv *httptest.Server

	mu       sync.Mutex
	requests []Request
}

// New starts a fake answering with answer; it stops when the test ends.
func New(t testing.TB, answer func(Request) Answer) *Server {
	s := &Server{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"not found","type":"invalid_request_error"}}`, http.StatusNotFound)
			return
		}
		var req Request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error"}}`, http.StatusBadRequest)
			return
		}
		req.Authorization = r.Header.Get("Authorization")
		s.mu.Lock()
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		s.answer(w, r, req, answer(req))
	}))
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.srv.Close)
	return s
}

// Requests returns what the fake received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Client is a guarded outbound client whose allowlist opens 127.0.0.1,
// as an operator opens a local model server.
func Client(t testing.TB) *outbound.Client {
	allow, err := outbound.ParseAllowlist("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c, err := outbound.New(outbound.Config{Allow: allow})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, req Request, a Answer) {
	wait := func() {
		select {
		case <-r.Context().Done():
		case <-a.Release:
		}
	}
	if a.Status != 0 && a.Status != http.StatusOK {
		if a.RetryAfter != "" {
			w.Header().Set("Retry-After", a.RetryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.Status)
		fmt.Fprintf(w, `{"error":{"message":"fake failure %d","type":"server_error"}}`, a.Status)
		return
	}
	if a.Garbage {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `<html>not a model</html>`)
		return
	}
	if !req.Stream {
		if a.Hang {
			wait()
			return
		}
		body := map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": a.Text}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": a.TokensIn, "completion_tokens": a.TokensOut, "total_tokens": a.TokensIn + a.TokensOut},
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	send := func(v any) bool {
		b, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	delta := func(content string, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": content}, "finish_reason": finish}}}
	}
	chunks := a.Chunks
	if chunks == nil {
		chunks = Words(a.Text)
	}
	for _, c := range chunks {
		if !send(delta(c, nil)) {
			return
		}
	}
	if a.Endless {
		more := strings.Repeat("more ", 800)
		for r.Context().Err() == nil && send(delta(more, nil)) {
		}
		return
	}
	if a.Hang {
		wait()
		return
	}
	if a.Cut {
		return
	}
	send(delta("", "stop"))
	send(map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": req.Model, "choices": []any{},
		"usage": map[string]any{"prompt_tokens": a.TokensIn, "completion_tokens": a.TokensOut, "total_tokens": a.TokensIn + a.TokensOut}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// Words splits text into streamed pieces, each word with its following space.
func Words(text string) []string {
	var out []string
	for text != "" {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}
