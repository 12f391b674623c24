package check

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wetel/wetel/store"
)

func TestHash(t *testing.T) {
	good := strings.Repeat("0123456789abcdef", 4)
	for _, c := range []struct {
		hash string
		ok   bool
	}{
		{good, true},
		{strings.ToUpper(good), false},
		{good[:63], false},
		{good + "0", false},
		{good[:63] + "g", false},
		{"", false},
	} {
		if err := Hash(c.hash); (err == nil) != c.ok || (err != nil && !errors.Is(err, store.ErrInvalid)) {
			t.Errorf("Hash(%q) = %v", c.hash, err)
		}
	}
}

func TestLimit(t *testing.T) {
	for _, c := range []struct {
		n, want int
		ok      bool
	}{{0, 50, true}, {1, 1, true}, {200, 200, true}, {201, 0, false}, {-1, 0, false}} {
		got, err := Limit(c.n, 50, 200)
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("Limit(%d) = %d, %v", c.n, got, err)
		}
	}
}

func TestFinish(t *testing.T) {
	at := time.Unix(1, 0)
	for _, c := range []struct {
		status string
		next   *time.Time
		ok     bool
	}{
		{store.OutboundSent, nil, true},
		{store.OutboundFailed, nil, true},
		{store.OutboundPending, &at, true},
		{store.OutboundPending, nil, false},
		{store.OutboundPending, &time.Time{}, false},
		{store.OutboundSent, &at, false},
		{"RETRY", &at, false},
	} {
		if err := Finish(c.status, c.next); (err == nil) != c.ok {
			t.Errorf("Finish(%s, %v) = %v", c.status, c.next, err)
		}
	}
}

func TestMcpConnector(t *testing.T) {
	for _, c := range []struct {
		name string
		mc   store.McpConnector
		ok   bool
	}{
		{"stdio", store.McpConnector{Name: "a", Transport: "stdio", Command: []string{"x"}}, true},
		{"http", store.McpConnector{Name: "a", Transport: "http", URL: "https://x"}, true},
		{"stdio, empty argv[0]", store.McpConnector{Name: "a", Transport: "stdio", Command: []string{""}}, false},
		{"http without url", store.McpConnector{Name: "a", Transport: "http", Command: []string{"x"}}, false},
		{"sse", store.McpConnector{Name: "a", Transport: "sse", URL: "https://x"}, false},
		{"tools not JSON", store.McpConnector{Name: "a", Transport: "http", URL: "u", Tools: []byte("{")}, false},
	} {
		if err := McpConnector(&c.mc); (err == nil) != c.ok {
			t.Errorf("%s: McpConnector = %v", c.name, err)
		}
	}
}

func TestEvents(t *testing.T) {
	if err := Events(1, 2, []store.Event{{Type: "a"}, {Type: "b", WorkspaceID: 1, SessionID: 2}}); err != nil {
		t.Errorf("events of the session: %v", err)
	}
	if err := Events(1, 2, []store.Event{{Type: "a", SessionID: 3}}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an event of another session: %v", err)
	}
	if err := Events(1, 2, []store.Event{{}}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("an event without a type: %v", err)
	}
}
