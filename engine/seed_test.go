package engine_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/wetel/wetel/callout"
	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/internal/calltest"
	"github.com/wetel/wetel/internal/testpeer"
	"github.com/wetel/wetel/vocab"
)

// The seed's worked example "bounded retry with a graceful give-up", with the
// partner mocked down: 8 node executions, the VISIT_LIMIT_REACHED row, three
// retry notices then the hand-off, run COMPLETED.
func TestSeedBoundedRetry(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../examples/bounded-retry.json")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness()
	res := h.run(t, string(src), engine.Input{})
	if res.Status != vocab.RunCompleted {
		t.Fatalf("status %s (%s)", res.Status, res.Error)
	}
	if res.Executions != 8 {
		t.Errorf("executions = %d, want 8", res.Executions)
	}
	want := "n_start:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED " +
		"n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:VISIT_LIMIT_REACHED n_give_up:COMPLETED"
	if got := path(res); got != want {
		t.Errorf("trace\n got: %s\nwant: %s", got, want)
	}
	refusal := res.NodeTrace[7]
	if refusal.VisitLimit != 3 || refusal.VisitCount != 3 || refusal.NodeType != "action" || refusal.Error != "" {
		t.Errorf("refusal row = %+v", refusal)
	}
	notice := "That didn't go through — trying once more."
	wantMsgs := []string{notice, notice, notice, "I couldn't reach our claims system after a few tries. I've flagged this for a colleague, who will follow up by email today."}
	if got := texts(res); strings.Join(got, "|") != strings.Join(wantMsgs, "|") {
		t.Errorf("messages = %q", got)
	}
	submit := res.NodeTrace[1]
	if submit.ErrorClass != "UNREACHABLE" || submit.RetryOutcome != "mock" || len(submit.Attempts) != 1 || submit.Error != "" {
		t.Errorf("failed submit row = %+v", submit)
	}
	if res.Vars["_lastNodeErrorCode"] != "UNREACHABLE" || res.Vars["_lastNodeErrorPublic"] != "The service could not be reached." {
		t.Errorf("error vars = %v / %v", res.Vars["_lastNodeErrorCode"], res.Vars["_lastNodeErrorPublic"])
	}
	if _, written := res.Vars["submitResult"]; written {
		t.Error("the failed node's outputVar was written")
	}
}

// The seed's router + tool worked example, down both intents and an unknown one.
func TestSeedOrderStatusRouter(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../examples/order-status.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ intent, path, reply string }{
		{"order_status", "start:COMPLETED classify:COMPLETED dispatch:COMPLETED lookup_order:COMPLETED respond_order:COMPLETED end:COMPLETED",
			"Here's your order status: ORD-48213 shipped on Monday and arrives Thursday"},
		{"general", "start:COMPLETED classify:COMPLETED dispatch:COMPLETED respond_general:COMPLETED end:COMPLETED",
			"I can help you check an order's status. What would you like to know?"},
		{"refund_request", "start:COMPLETED classify:COMPLETED dispatch:COMPLETED respond_general:COMPLETED end:COMPLETED",
			"I can help you check an order's status. What would you like to know?"},
	}
	for _, tc := range cases {
		t.Run(tc.intent, func(t *testing.T) {
			t.Parallel()
			doc := strings.Replace(string(src), `"mockResponse": "order_status"`, `"mockResponse": "`+tc.intent+`"`, 1)
			res := newHarness().run(t, doc, engine.Input{})
			if res.Status != vocab.RunCompleted || path(res) != tc.path {
				t.Fatalf("status %s, trace %s", res.Status, path(res))
			}
			if got := texts(res); len(got) != 1 || got[0] != tc.reply {
				t.Fatalf("messages = %q", got)
			}
			if !res.SessionEnded {
				t.Error("end_session did not end the session")
			}
		})
	}
}

// The same worked example with the partner really down: n_submit calls a
// custom action on a closed loopback port instead of being mocked. Each
// visit tries 3 times (the built-in action policy), which the seed's count
// of 8 node executions does not see: "Retries do not count toward the
// run's node budget."
func TestSeedBoundedRetryPartnerDown(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../examples/bounded-retry.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := regexp.MustCompile(`,\s*"mockError": \{[^}]*\}`).ReplaceAllString(string(src), "")
	if strings.Contains(doc, "mockError") {
		t.Fatal("the example's mock was not removed")
	}
	ce := calltest.NewEnv(t, callout.ActionList{41: {ID: 41, Name: "submit-claim", Method: "POST", URL: testpeer.ClosedPort(t) + "/v1/claims",
		Headers: map[string]string{"Authorization": "Bearer claims-token-0042"}}})
	res := newHarness().run(t, doc, engine.Input{Services: ce.Services})
	if res.Status != vocab.RunCompleted || res.Executions != 8 {
		t.Fatalf("status %s, %d executions (%s)", res.Status, res.Executions, res.Error)
	}
	want := "n_start:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:FAILED_HANDLED n_wait_note:COMPLETED " +
		"n_submit:FAILED_HANDLED n_wait_note:COMPLETED n_submit:VISIT_LIMIT_REACHED n_give_up:COMPLETED"
	if got := path(res); got != want {
		t.Fatalf("trace\n got: %s\nwant: %s", got, want)
	}
	if r := res.NodeTrace[7]; r.VisitLimit != 3 || r.VisitCount != 3 {
		t.Errorf("refusal row = %+v", r)
	}
	for _, i := range []int{1, 3, 5} {
		r := res.NodeTrace[i]
		if r.ErrorClass != "UNREACHABLE" || r.RetryOutcome != "exhausted" || calltest.Attempts(r) != "1:UNREACHABLE/0/0 2:UNREACHABLE/0/0 3:UNREACHABLE/0/0" || r.Error != "" {
			t.Errorf("row %d: %s %s %s %q", i, r.ErrorClass, r.RetryOutcome, calltest.Attempts(r), r.Error)
		}
	}
	notice := "That didn't go through — trying once more."
	wantMsgs := []string{notice, notice, notice, "I couldn't reach our claims system after a few tries. I've flagged this for a colleague, who will follow up by email today."}
	if got := texts(res); strings.Join(got, "|") != strings.Join(wantMsgs, "|") {
		t.Errorf("messages = %q", got)
	}
	if res.Vars["_lastNodeErrorCode"] != "UNREACHABLE" || !strings.Contains(res.Vars["_lastNodeError"].(string), "connection refused") {
		t.Errorf("error vars = %v / %v", res.Vars["_lastNodeErrorCode"], res.Vars["_lastNodeError"])
	}
}
