package events

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wetel/wetel/clock"
)

// sseServer serves session (1, 5) of h and reports when the handler returns.
func sseServer(t *testing.T, h *Hub) (*httptest.Server, <-chan struct{}) {
	t.Helper()
	done := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ServeSSE(w, r, h, 1, 5)
		select { // tests with several streams do not wait for this
		case done <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(srv.Close)
	return srv, done
}

// openStream starts a stream; cancel ends the client's side.
func openStream(t *testing.T, url string, header http.Header) (*bufio.Reader, *http.Response, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("get %s: %v", url, err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	return bufio.NewReader(resp.Body), resp, cancel
}

// readFrames reads n frames (each ends with a blank line), verbatim.
func readFrames(t *testing.T, br *bufio.Reader, n int) string {
	t.Helper()
	var b strings.Builder
	for n > 0 {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream after %q: %v", b.String(), err)
		}
		b.WriteString(line)
		if line == "\n" {
			n--
		}
	}
	return b.String()
}

func TestServeSSEWritesExactFrames(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	publish(t, h, 1, 5, 1)
	srv, _ := sseServer(t, h)
	br, resp, _ := openStream(t, srv.URL, nil)
	for name, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("header %s = %q, want %q", name, got, want)
		}
	}
	if _, err := h.Publish(context.Background(), 1, 5, "TurnComplete", json.RawMessage("{\n  \"a\": \"x\\ny\"\n}")); err != nil {
		t.Fatalf("publish: %v", err)
	}
	want := "id: 1\nevent: Message\ndata: {\"text\":\"hi\"}\n\n" +
		"id: 2\nevent: TurnComplete\ndata: {\"a\":\"x\\ny\"}\n\n"
	if got := readFrames(t, br, 2); got != want {
		t.Errorf("stream = %q, want %q", got, want)
	}
}

func TestServeSSEResumes(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	publish(t, h, 1, 5, 5)
	srv, _ := sseServer(t, h)
	tests := []struct {
		name, query, lastEventID string
		wantFirst                string
	}{
		{"from the start", "", "", "id: 1\n"},
		{"Last-Event-ID", "", "2", "id: 3\n"},
		{"afterSeq", "?afterSeq=3", "", "id: 4\n"},
		// EventSource keeps the URL on reconnect; the header is the newer seq.
		{"Last-Event-ID over afterSeq", "?afterSeq=1", "4", "id: 5\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			header := http.Header{}
			if tc.lastEventID != "" {
				header.Set("Last-Event-ID", tc.lastEventID)
			}
			br, _, _ := openStream(t, srv.URL+tc.query, header)
			if got := readFrames(t, br, 1); !strings.HasPrefix(got, tc.wantFirst) {
				t.Errorf("first frame = %q, want it to start %q", got, tc.wantFirst)
			}
		})
	}
}

func TestServeSSERejectsABadResumeSeq(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	tests := []struct{ name, query, lastEventID, want string }{
		{"header not a number", "", "abc", `invalid Last-Event-ID "abc"`},
		{"header negative", "", "-1", `invalid Last-Event-ID "-1"`},
		{"param not a number", "?afterSeq=x1", "", `invalid afterSeq "x1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(http.MethodGet, "/api/sessions/5/events"+tc.query, nil)
			if tc.lastEventID != "" {
				req.Header.Set("Last-Event-ID", tc.lastEventID)
			}
			rec := httptest.NewRecorder()
			ServeSSE(rec, req, h, 1, 5)
			if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("got %d %q, want 400 containing %q", rec.Code, rec.Body.String(), tc.want)
			}
		})
	}
}

func TestServeSSEOnAClosedHubIsUnavailable(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{})
	if err := h.Close(context.Background()); err != nil {
		t.Fatalf("close: %v", err)
	}
	rec := httptest.NewRecorder()
	ServeSSE(rec, httptest.NewRequest(http.MethodGet, "/", nil), h, 1, 5)
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("status = %d, want 503", rec.Code)
	}
}

func TestServeSSESendsKeepalivesAndEndsWhenTheClientLeaves(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(t0)
	h := newHub(t, Options{KeepAlive: 15 * time.Second, Clock: clk})
	srv, done := sseServer(t, h)
	br, _, cancel := openStream(t, srv.URL, nil)
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	if err := clk.BlockUntil(ctx, 2); err != nil { // the janitor and the stream's keepalive
		t.Fatal(err)
	}
	clk.Advance(15 * time.Second)
	if got := readFrames(t, br, 1); got != ": keepalive\n\n" {
		t.Errorf("frame on an idle stream = %q, want a keepalive comment", got)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler kept running after the client left")
	}
	eventually(t, "the subscription is gone", func() bool { return h.Stats().Subscribers == 0 })
}

// gatedWriter is a ResponseWriter whose writes wait for open, so the
// handler can be held mid-stream while events pile up.
type gatedWriter struct {
	header  http.Header
	entered chan struct{} // receives once a write is waiting
	open    chan struct{}
	mu      sync.Mutex
	body    strings.Builder
}

func (w *gatedWriter) Header() http.Header { return w.header }
func (w *gatedWriter) WriteHeader(int)     {}
func (w *gatedWriter) Flush()              {}
func (w *gatedWriter) Write(p []byte) (int, error) {
	select {
	case w.entered <- struct{}{}:
	default:
	}
	<-w.open
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.body.Write(p)
}

func TestServeSSETellsALaggingClientAndReturns(t *testing.T) {
	t.Parallel()
	h := newHub(t, Options{SubscriberBuffer: 4})
	w := &gatedWriter{header: http.Header{}, entered: make(chan struct{}, 1), open: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		ServeSSE(w, httptest.NewRequest(http.MethodGet, "/", nil), h, 1, 5)
	}()
	eventually(t, "the handler subscribed", func() bool { return h.Stats().Subscribers == 1 })
	publish(t, h, 1, 5, 1)
	<-w.entered             // the handler is stuck writing seq 1
	publish(t, h, 1, 5, 50) // more than its buffer
	close(w.open)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler kept running after the subscriber lagged")
	}
	w.mu.Lock()
	body := w.body.String()
	w.mu.Unlock()
	frames := strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n")
	last := frames[len(frames)-1]
	if !strings.HasPrefix(body, "id: 1\n") || !strings.HasPrefix(last, "event: lagged\ndata: {\"afterSeq\":") {
		t.Errorf("stream = %q, want events from seq 1 then a lagged frame", body)
	}
	var resume struct{ AfterSeq int64 }
	if err := json.Unmarshal([]byte(strings.TrimPrefix(last, "event: lagged\ndata: ")), &resume); err != nil || resume.AfterSeq != int64(len(frames)-1) {
		t.Errorf("lagged frame %q: want afterSeq %d, the last seq sent (err %v)", last, len(frames)-1, err)
	}
}

func TestOneLineNeverLetsALineBreakThrough(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{"", "null"},
		{"{\r\n \"a\": [1,\n 2]\n}", `{"a":[1,2]}`},
		{"not\njson", `"not\njson"`},
	}
	for _, tc := range tests {
		if got := string(oneLine(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
