package events_test

import (
	"context"
	"fmt"

	"github.com/wetel/wetel/events"
)

// A subscriber that reconnects after seq 1 is replayed what it missed,
// then receives live events.
func ExampleHub_Subscribe() {
	ctx := context.Background()
	hub := events.NewHub(events.Options{}) // memory only
	defer hub.Close(ctx)

	_, _ = hub.Publish(ctx, 1, 42, "RunStarted", map[string]int{"runId": 7})
	_, _ = hub.Publish(ctx, 1, 42, "Message", map[string]string{"text": "Hello!"})

	sub, err := hub.Subscribe(ctx, 1, 42, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sub.Close()
	_, _ = hub.Publish(ctx, 1, 42, "RunFinished", map[string]string{"status": "COMPLETED"})

	for range 2 {
		ev := <-sub.C
		fmt.Println(ev.Seq, ev.Type, string(ev.Payload))
	}
	// Output:
	// 2 Message {"text":"Hello!"}
	// 3 RunFinished {"status":"COMPLETED"}
}
