package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wetel/wetel/failure"
)

// goServer is an MCP server built with the SDK, served over Streamable
// HTTP on a loopback port, whose tools a test can change after the pool
// registered it.
type goServer struct {
	srv   *mcp.Server
	url   string
	calls atomic.Int32 // tools/call requests the tools saw
	auth  atomic.Value // the Authorization header of the last request
}

type addIn struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addOut struct {
	Sum int `json:"sum"`
}

// startGoServer serves tools add, fail, and two fillers, two to a page so
// that registration has to follow tools/list cursors.
func startGoServer(t *testing.T) *goServer {
	t.Helper()
	g := &goServer{srv: mcp.NewServer(&mcp.Implementation{Name: "go-test", Version: "1"}, &mcp.ServerOptions{PageSize: 2})}
	mcp.AddTool(g.srv, &mcp.Tool{Name: "add", Description: "Adds a and b."}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
		g.calls.Add(1)
		return nil, addOut{Sum: in.A + in.B}, nil
	})
	mcp.AddTool(g.srv, &mcp.Tool{Name: "fail"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		g.calls.Add(1)
		// A careless server quoting the credential it was sent.
		return nil, nil, fmt.Errorf("order service said no to %s", req.Extra.Header.Get("Authorization"))
	})
	for _, name := range []string{"filler-1", "filler-2"} {
		mcp.AddTool(g.srv, &mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.auth.Store(r.Header.Get("Authorization"))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	g.url = ts.URL + "/mcp"
	return g
}

func (g *goServer) connector(id int) Connector {
	return Connector{ID: id, Name: "orders", Transport: TransportHTTP, URL: g.url,
		Headers: map[string]string{"Authorization": "Bearer tok-orders-4711"}}
}

func TestHTTPRegisterAndCall(t *testing.T) {
	t.Parallel()
	g := startGoServer(t)
	p := newTestPool(t)
	tools, err := p.Register(testContext(t), g.connector(12))
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, ","); got != "add,fail,filler-1,filler-2" {
		t.Errorf("tools over two pages = %s, want add,fail,filler-1,filler-2", got)
	}
	if !strings.Contains(string(tools[0].InputSchema), `"required":["a","b"]`) {
		t.Errorf("add's input schema = %s, want a and b required", tools[0].InputSchema)
	}
	res, err := p.Call(testContext(t), 12, "add", map[string]any{"a": 2, "b": 3})
	if err != nil {
		t.Fatalf("Call add: %v", err)
	}
	if sum := res.Value.(map[string]any)["sum"]; sum != float64(5) {
		t.Errorf("Value = %#v, want the structured content {sum: 5}", res.Value)
	}
	if got := g.auth.Load(); got != "Bearer tok-orders-4711" {
		t.Errorf("Authorization at the server = %v, want the connector's credential", got)
	}
}

func TestHTTPToolError(t *testing.T) {
	t.Parallel()
	g := startGoServer(t)
	p := newTestPool(t)
	if _, err := p.Register(testContext(t), g.connector(12)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	res, err := p.Call(testContext(t), 12, "fail", nil)
	requireFailure(t, err, failure.UpstreamError, true,
		`tool "fail" on connector 12 (orders) reported an error: order service said no to`)
	if strings.Contains(err.Error(), "tok-orders-4711") {
		t.Errorf("error %q shows the connector's credential", err)
	}
	if !res.IsError || !strings.Contains(res.Text, "order service said no") {
		t.Errorf("Result = %+v, want the tool's error text with IsError", res)
	}
}

func TestHTTPConcurrentCalls(t *testing.T) {
	t.Parallel()
	g := startGoServer(t)
	p := newTestPool(t)
	if _, err := p.Register(testContext(t), g.connector(12)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Go(func() {
			res, err := p.Call(testContext(t), 12, "add", map[string]any{"a": i, "b": 1})
			if err == nil && res.Value.(map[string]any)["sum"] != float64(i+1) {
				err = fmt.Errorf("call %d: sum %v", i, res.Value)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestHTTPHandshakeRefused(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad credentials", http.StatusUnauthorized)
	}))
	defer ts.Close()
	p := newTestPool(t)
	_, err := p.Register(testContext(t), Connector{ID: 3, Transport: TransportHTTP, URL: ts.URL})
	fe := requireFailure(t, err, failure.Rejected, false, "connecting to MCP connector 3")
	if fe.HTTPStatus != http.StatusUnauthorized {
		t.Errorf("HTTPStatus = %d, want 401", fe.HTTPStatus)
	}
}

func TestRegisterAgainReplacesConnector(t *testing.T) {
	t.Parallel()
	g := startGoServer(t)
	p := newTestPool(t)
	ctx := testContext(t)
	if _, err := p.Register(ctx, g.connector(12)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	same := p.lookup(12)
	if _, err := p.Register(ctx, g.connector(12)); err != nil {
		t.Fatalf("Register again: %v", err)
	}
	if p.lookup(12) != same {
		t.Error("registering unchanged settings again replaced the connector")
	}
	changed := g.connector(12)
	changed.Headers["Authorization"] = "Bearer tok-rotated-0815"
	if _, err := p.Register(ctx, changed); err != nil {
		t.Fatalf("Register with a rotated credential: %v", err)
	}
	if _, err := p.Call(ctx, 12, "add", map[string]any{"a": 1, "b": 1}); err != nil {
		t.Fatalf("Call: %v", err)
	}
	if got := g.auth.Load(); got != "Bearer tok-rotated-0815" {
		t.Errorf("Authorization after re-registering = %v, want the rotated credential", got)
	}
	_, err := p.Call(ctx, 99, "add", nil)
	if !errors.Is(err, ErrNotRegistered) {
		t.Errorf("Call to an unknown connector = %v, want ErrNotRegistered", err)
	}
}
