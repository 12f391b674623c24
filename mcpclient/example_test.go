package mcpclient_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/wetel/wetel/failure"
	"github.com/wetel/wetel/mcpclient"
)

// The engine registers each connector of a workspace once, then tool
// nodes call tools by connector id. The example needs the reference
// server from npm, so it is compiled but not run.
func ExamplePool() {
	pool := mcpclient.NewPool(mcpclient.Options{
		HTTPClient: http.DefaultClient, // the engine passes its SSRF-guarded client
		Logger:     slog.Default(),
	})
	defer pool.Close()

	ctx := context.Background()
	tools, err := pool.Register(ctx, mcpclient.Connector{
		ID:        12,
		Name:      "everything",
		Transport: mcpclient.TransportStdio,
		Command:   []string{"npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"},
		Env:       map[string]string{"API_TOKEN": "from the workspace's credentials"},
	})
	if err != nil {
		fmt.Println("register:", failure.Classify(err), err)
		return
	}
	fmt.Println(len(tools) > 0)

	// The tool node's timeoutMs bounds the call through ctx.
	callCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	res, err := pool.Call(callCtx, 12, "echo", map[string]any{"message": "hi"})
	var fe *failure.Error
	switch {
	case err == nil:
		fmt.Println(res.Value) // Echo: hi
	case errors.As(err, &fe) && !fe.Sent:
		// Schema drift found before sending, or a failure while
		// connecting: the tool did not run.
		fmt.Println("not called:", fe.Code, err)
	default:
		fmt.Println("called, then failed:", failure.Classify(err), err)
	}
}
