package turn_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/vocab"
)

// holdSpec is a node type that, on the message "first", tells entered it
// started and then waits for release: a slow node in flight.
func holdSpec(entered, release chan struct{}) *node.Spec {
	return &node.Spec{
		Type: "hold", Summary: "Waits for the test on the first message.", Routing: node.RouteAll, Runs: node.OnServer | node.Offline,
		Build: func(node.BuildInput) (node.Executor, error) {
			return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
				if x.Vars[vocab.FactUserMessage] == "first" {
					close(entered)
					<-release
				}
				return node.Outcome{}, nil
			}), nil
		},
	}
}

const holdGraph = `{"nodes":[{"id":"start","type":"start"},{"id":"hold","type":"hold"},
{"id":"say","type":"response","config":{"messageTemplate":"answered {{userMessage}}"}}],
"edges":[{"id":"e1","source":"start","target":"hold"},{"id":"e2","source":"hold","target":"say"}]}`

// TestBurstAnswersTheNewestMessage: while a turn is in flight, 50 more
// messages arrive. The running turn stops before its next dispatch; each
// queued turn with a newer message behind it stops before its first; only
// the newest is answered, and every message stays in the transcript.
func TestBurstAnswersTheNewestMessage(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	reg := node.Default.Clone()
	if err := reg.Add(holdSpec(entered, release)); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, holdGraph)
	f.svc.Registry = reg
	s := f.session(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := f.svc.Send(ctx, f.ws, s.ID, "first"); err != nil {
			t.Error(err)
		}
	}()
	<-entered
	const burst = 50
	for i := range burst {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.svc.Send(ctx, f.ws, s.ID, fmt.Sprintf("m%d", i)); err != nil {
				t.Error(err)
			}
		}()
	}
	for f.svc.Queued(s.ID) < burst+1 {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()

	runs, err := f.st.RunsBySession(ctx, f.ws, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := f.st.Messages(ctx, f.ws, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, m := range msgs {
		if m.Role == "user" {
			users = append(users, m.Text)
		}
	}
	if len(runs) != burst+1 || len(users) != burst+1 || users[0] != "first" {
		t.Fatalf("%d runs and %d user messages (first %q), want %d of each", len(runs), len(users), users[0], burst+1)
	}
	last := msgs[len(msgs)-1]
	if want := "answered " + users[burst]; last.Role != "assistant" || last.Text != want {
		t.Fatalf("the last message is %s %q, want the newest message answered: %q", last.Role, last.Text, want)
	}
	completed := 0
	for i, r := range runs {
		switch {
		case i == 0:
			if r.Status != vocab.RunInterrupted || string(r.NodeTrace) == "[]" {
				t.Errorf("the turn in flight: %s with trace %s, want INTERRUPTED after its node", r.Status, r.NodeTrace)
			}
		case r.Status == vocab.RunCompleted:
			completed++
			if i != burst {
				t.Errorf("run %d of %d completed; only the newest should", i, burst)
			}
		case r.Status != vocab.RunInterrupted || string(r.NodeTrace) != "[]":
			t.Errorf("queued run %d: %s with trace %s, want INTERRUPTED before its first dispatch", i, r.Status, r.NodeTrace)
		}
	}
	if completed != 1 {
		t.Errorf("%d queued runs completed, want 1", completed)
	}
}
