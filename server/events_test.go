package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"github.com/wetel/wetel/client"
)

// TestEventsInOrder reads a session's events over SSE and over a GraphQL
// subscription while a turn runs: the same events in the same order, a
// question published with turnComplete true and a TurnComplete closing
// the turn; a reconnect with Last-Event-ID replays what follows.
func TestEventsInOrder(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{})
	session := startDemoSession(t, ts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	sse := make(chan client.Event, 100)
	go func() {
		_, _ = ts.c.Events(ctx, int64(session), 0, func(ev client.Event) bool {
			sse <- ev
			return ev.Type != "TurnComplete"
		})
	}()
	ws := subscribe(ctx, t, ts, session, 0)
	time.Sleep(100 * time.Millisecond) // both subscribers registered; anything missed would be replayed anyway

	send(t, ts, session, "hello")
	var got []client.Event
	for len(got) == 0 || got[len(got)-1].Type != "TurnComplete" {
		select {
		case ev := <-sse:
			got = append(got, ev)
		case <-ctx.Done():
			t.Fatalf("SSE: no TurnComplete; got %v", types(got))
		}
	}
	want := "RunStarted NodeExecuting NodeCompleted NodeExecuting NodeCompleted NodeExecuting NodeCompleted Message RunFinished TurnComplete"
	if strings.Join(types(got), " ") != want {
		t.Fatalf("SSE events:\n got %s\nwant %s", strings.Join(types(got), " "), want)
	}
	for i, ev := range got {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
	}
	var msg struct {
		MessageID    int
		Text         string
		IsFinal      bool
		TurnComplete bool
	}
	if err := json.Unmarshal(got[7].Data, &msg); err != nil || msg.MessageID == 0 || !msg.IsFinal || !msg.TurnComplete || !strings.HasPrefix(msg.Text, "Hi!") {
		t.Fatalf("question event %s (%v)", got[7].Data, err)
	}

	var viaWS []string
	for len(viaWS) < len(got) {
		ev, err := ws()
		if err != nil {
			t.Fatalf("subscription after %v: %v", viaWS, err)
		}
		viaWS = append(viaWS, fmt.Sprintf("%d:%s", ev.Seq, ev.Type))
	}
	for i, ev := range got {
		if viaWS[i] != fmt.Sprintf("%d:%s", ev.Seq, ev.Type) {
			t.Fatalf("subscription event %d = %s, SSE had %d:%s", i, viaWS[i], ev.Seq, ev.Type)
		}
	}

	// A client that saw up to seq 7 reconnects and is replayed 8 onwards.
	var replay []string
	_, err := ts.c.Events(ctx, int64(session), 7, func(ev client.Event) bool {
		replay = append(replay, fmt.Sprintf("%d:%s", ev.Seq, ev.Type))
		return ev.Type != "TurnComplete"
	})
	if err != nil || strings.Join(replay, " ") != "8:Message 9:RunFinished 10:TurnComplete" {
		t.Fatalf("replay after 7: %v (%v)", replay, err)
	}
	// And over the subscription with afterSeq.
	ws2 := subscribe(ctx, t, ts, session, 8)
	if ev, err := ws2(); err != nil || ev.Seq != 9 || ev.Type != "RunFinished" {
		t.Fatalf("subscription with afterSeq 8 began with %+v (%v)", ev, err)
	}
}

func types(evs []client.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

type wsEvent struct {
	Seq  int64
	Type string
}

// subscribe opens a graphql-transport-ws subscription to sessionEvents and
// returns a function reading its next event.
func subscribe(ctx context.Context, t *testing.T, ts *testServer, session int, after int) func() (wsEvent, error) {
	t.Helper()
	conn, _, err := websocket.Dial(ctx, strings.Replace(ts.url, "http", "ws", 1)+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(websocket.StatusNormalClosure, "") })
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer " + testKey}}))
	var ack map[string]any
	must(wsjson.Read(ctx, conn, &ack))
	if ack["type"] != "connection_ack" {
		t.Fatalf("connection_init answered %v", ack)
	}
	// The ack says nothing: echoing the init payload would send the
	// client's key back over the wire (and into any proxy's logs).
	if _, ok := ack["payload"]; ok {
		t.Fatalf("connection_ack carries a payload: %v", ack)
	}
	must(wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{
		"query":     `subscription($s: Int!, $a: Int) { sessionEvents(sessionId: $s, afterSeq: $a) { seq type sessionId data at } }`,
		"variables": map[string]any{"s": session, "a": after}}}))
	return func() (wsEvent, error) {
		for {
			var m struct {
				Type    string
				Payload struct {
					Data struct {
						SessionEvents wsEvent
					}
					Errors []any
				}
			}
			if err := wsjson.Read(ctx, conn, &m); err != nil {
				return wsEvent{}, err
			}
			switch m.Type {
			case "next":
				return m.Payload.Data.SessionEvents, nil
			case "ping":
				_ = wsjson.Write(ctx, conn, map[string]any{"type": "pong"})
			case "error", "complete":
				return wsEvent{}, fmt.Errorf("subscription ended: %s %v", m.Type, m.Payload.Errors)
			}
		}
	}
}
