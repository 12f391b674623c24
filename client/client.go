// Package client talks to a Wetel server: GraphQL over HTTP and a
// session's Server-Sent Events. `wetel chat` and `wetel apply` use it, and
// so do the server's end-to-end tests.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client is a server's base URL and an API key.
type Client struct {
	BaseURL string
	Key     string
	HTTP    *http.Client
}

// New returns a client for base (http://host:port) with key.
func New(base, key string) *Client {
	return &Client{BaseURL: strings.TrimRight(base, "/"), Key: key, HTTP: http.DefaultClient}
}

// Error is a GraphQL error the server answered with.
type Error struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

// Code is the error's extensions.code.
func (e Error) Code() string {
	c, _ := e.Extensions["code"].(string)
	return c
}

// Errors is every error of one answer.
type Errors []Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Message
		if c := e.Code(); c != "" {
			msgs[i] += " (" + c + ")"
		}
	}
	return strings.Join(msgs, "; ")
}

// Code is the first error's code.
func (es Errors) Code() string {
	if len(es) == 0 {
		return ""
	}
	return es[0].Code()
}

// Do runs a query or mutation and decodes its data into out (which may be
// nil). An answer with errors returns them as Errors.
func (c *Client) Do(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	var answer struct {
		Data   json.RawMessage `json:"data"`
		Errors Errors          `json:"errors"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, bytes.TrimSpace(raw))
	}
	if len(answer.Errors) > 0 {
		return answer.Errors
	}
	if out == nil || len(answer.Data) == 0 {
		return nil
	}
	return json.Unmarshal(answer.Data, out)
}
