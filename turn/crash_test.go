package turn_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/store/sqlite"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
)

const crashGraph = `{"nodes":[{"id":"s","type":"start"},{"id":"b","type":"blocker"},{"id":"r","type":"response","config":{"messageTemplate":"got {{userMessage}}"}}],
"edges":[{"id":"e1","source":"s","target":"b"},{"id":"e2","source":"b","target":"r"}]}`

// TestCrashChild is the process TestKillMidTurn kills: it runs turns and
// reports each accepted message, then blocks inside a node on "block".
func TestCrashChild(t *testing.T) {
	path := os.Getenv("WETEL_CRASH_DB")
	if path == "" {
		t.Skip("run by TestKillMidTurn")
	}
	ctx := context.Background()
	st, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg := node.Default.Clone()
	_ = reg.Replace(&node.Spec{Type: "blocker", Routing: node.RouteAll, Build: func(node.BuildInput) (node.Executor, error) {
		return node.ExecutorFunc(func(_ context.Context, x *node.Exec) (node.Outcome, error) {
			if x.Vars["userMessage"] == "block" {
				fmt.Println("blocking")
				select {} // killed here, mid-run
			}
			return node.Outcome{}, nil
		}), nil
	}})
	ws, _ := st.CreateWorkspace(ctx, "crash")
	wf, _ := st.CreateWorkflow(ctx, store.Workflow{WorkspaceID: ws.ID, Name: "w", Draft: json.RawMessage(crashGraph)})
	_, _ = st.Publish(ctx, ws.ID, wf.ID, json.RawMessage(crashGraph), "t")
	agent, _ := st.CreateAgent(ctx, store.Agent{WorkspaceID: ws.ID, Name: "a", WorkflowID: wf.ID})
	sess, _ := st.CreateSession(ctx, store.Session{WorkspaceID: ws.ID, AgentID: agent.ID, Status: store.SessionOpen})
	eng, _ := engine.New(engine.Options{})
	svc := &turn.Service{Store: st, Engine: eng, Registry: reg}
	fmt.Printf("session %d %d\n", ws.ID, sess.ID)
	for i := 0; i < 30; i++ {
		if _, err := svc.Send(ctx, ws.ID, sess.ID, fmt.Sprintf("m%d", i)); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("accepted m%d\n", i)
	}
	_, _ = svc.Send(ctx, ws.ID, sess.ID, "block")
}

func TestKillMidTurn(t *testing.T) {
	t.Parallel()
	if os.Getenv("WETEL_CRASH_DB") != "" {
		t.Skip("inside the child")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WETEL_CRASH_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var ws, sess int64
	var accepted []string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		if _, err := fmt.Sscanf(line, "session %d %d", &ws, &sess); err == nil {
			continue
		}
		if m, ok := strings.CutPrefix(line, "accepted "); ok {
			accepted = append(accepted, m)
		}
		if line == "blocking" {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if len(accepted) != 30 {
		t.Fatalf("the child accepted %d messages before blocking", len(accepted))
	}
	st, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	recovered, err := st.RecoverRuns(ctx, "the process stopped while this run was in flight")
	if err != nil || recovered != 1 {
		t.Fatalf("recovered %d runs, %v; want the one killed mid-run", recovered, err)
	}
	msgs, _ := st.Messages(ctx, ws, sess)
	seen := map[string]bool{}
	for _, m := range msgs {
		if m.Role == "user" {
			seen[m.Text] = true
		}
	}
	for _, m := range append(accepted, "block") {
		if !seen[m] {
			t.Errorf("accepted message %q is not in the transcript", m)
		}
	}
	runs, _ := st.RunsBySession(ctx, ws, sess)
	for _, r := range runs {
		if r.Status == vocab.RunRunning {
			t.Errorf("run %d left RUNNING", r.ID)
		}
	}
	if last := runs[len(runs)-1]; last.Status != vocab.RunFailed || last.Error == "" {
		t.Errorf("the killed run is %s %q", last.Status, last.Error)
	}
}
