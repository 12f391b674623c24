package callout_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/graph"
	"github.com/wetel/wetel/node"
	_ "github.com/wetel/wetel/node/all"
	"github.com/wetel/wetel/outbound"
)

// A run's Services give its action nodes the custom actions to call and the
// guarded HTTP client to call them with, each under its key; the partner
// here listens on loopback, which the operator's allowlist opens.
func Example() {
	partner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"reference":"CLM-%s"}`, r.URL.Query().Get("order"))
	}))
	defer partner.Close()

	allow, _ := outbound.ParseAllowlist("127.0.0.1")
	client, _ := outbound.New(outbound.Config{Allow: allow})
	svc := node.NewServices(
		callout.HTTPKey.With(client),
		callout.ActionsKey.With(callout.ActionList{41: {ID: 41, Name: "submit-claim", Method: "POST",
			URL: partner.URL + "/v1/claims?order={{orderId}}", Headers: map[string]string{"Authorization": "Bearer tok-123"}}}),
	)
	g, _ := graph.Decode([]byte(`{"nodes":[
		{"id":"s","type":"start","config":{}},
		{"id":"submit","type":"action","config":{"customActionId":41,"outputVar":"submitResult","bodyTemplate":"{\"text\":\"{{userMessage}}\"}"}},
		{"id":"done","type":"response","config":{"messageTemplate":"{{submitResult.status}}: your claim is {{submitResult.data.reference}}"}}],
	"edges":[{"id":"e1","source":"s","target":"submit"},{"id":"e2","source":"submit","target":"done"}]}`))
	plan, err := engine.Compile(g, node.Default)
	if err != nil {
		fmt.Println(err)
		return
	}
	eng, _ := engine.New(engine.Options{})
	res := eng.Run(context.Background(), plan, engine.Input{Services: svc,
		Vars: map[string]any{"userMessage": "cracked screen", "orderId": "A 7"}})
	fmt.Println(res.Status, res.Messages[0].Text)
	// Output:
	// COMPLETED 200: your claim is CLM-A 7
}
