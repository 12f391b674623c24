package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A malformed body is refused VALIDATION quoting at most a short excerpt,
// never the whole body back.
func TestMalformedBodyNotEchoed(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	tail := strings.Repeat("TAIL-OF-THE-BODY ", 1000)
	for _, body := range []string{
		`{"query": "{ me { role } }", "variables": {"x": ` + tail,
		`{"query": 5, "pad": "` + tail + `"}`,
		`{"query": "{ me { role } }", "variables": "` + tail + `"}`,
		`not json at all ` + tail,
		// A batch (a JSON array of requests) is not accepted.
		`[{"query": "{ me { role } }"}, {"query": "` + tail + `"}]`,
	} {
		req, _ := http.NewRequest(http.MethodPost, ts.url+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+testKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Errors []struct {
				Message    string
				Extensions struct{ Code string }
			}
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil || len(out.Errors) != 1 {
			t.Fatalf("%.40s: answered %v %+v", body, err, out)
		}
		e := out.Errors[0]
		if resp.StatusCode != http.StatusBadRequest || e.Extensions.Code != "VALIDATION" || len(e.Message) > 300 || strings.Count(e.Message, "TAIL") > 4 {
			t.Errorf("%.40s: %d %s %q (%d bytes)", body, resp.StatusCode, e.Extensions.Code, e.Message[:min(len(e.Message), 300)], len(e.Message))
		}
	}
}

// Message.runId is documented as the run a user message started: the
// field and the schema say the same.
func TestUserMessageRunID(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	session := startDemoSession(t, ts)
	var out struct {
		SendMessage struct {
			UserMessage struct{ RunID *int }
			Runs        []struct{ ID int }
		}
	}
	do(t, ts.c, `mutation($s: Int!) { sendMessage(sessionId: $s, text: "hi") { userMessage { runId } runs { id } } }`, map[string]any{"s": session}, &out)
	got := out.SendMessage
	if got.UserMessage.RunID == nil || len(got.Runs) == 0 || *got.UserMessage.RunID != got.Runs[0].ID {
		t.Fatalf("user message runId %v, runs %+v: want the run it started", got.UserMessage.RunID, got.Runs)
	}
}
