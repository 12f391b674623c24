package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/store"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/vocab"
	"github.com/wetel/wetel/workspace"
)

// runOutput is what `wetel run` prints: one entry per --message.
type runOutput struct {
	SessionID int64        `json:"sessionId"`
	Turns     []turnOutput `json:"turns"`
}

type turnOutput struct {
	Message  string        `json:"message"`
	Runs     []runJSON     `json:"runs"`
	Messages []messageJSON `json:"messages"`
}

type runJSON struct {
	ID               int64           `json:"id"`
	Status           string          `json:"status"`
	ResumedFromRunID *int64          `json:"resumedFromRunId"`
	Error            string          `json:"error,omitempty"`
	ErrorCode        string          `json:"errorCode,omitempty"`
	NodeTrace        json.RawMessage `json:"nodeTrace"`
	// Vars is the run's context when it finished: what a later node, a
	// failure branch or the resumed run reads.
	Vars json.RawMessage `json:"vars,omitempty"`
}

type messageJSON struct {
	Text         string `json:"text"`
	Mood         string `json:"mood,omitempty"`
	TurnComplete bool   `json:"turnComplete"`
}

// step is one --message or --identity, kept in command-line order so
// `--message a --identity ann --message b` signs in before the second turn.
type step struct {
	identity *string
	message  *string
}

type stepFlag struct {
	steps    *[]step
	identity bool
}

func (f stepFlag) String() string { return "" }
func (f stepFlag) Set(v string) error {
	if f.identity {
		*f.steps = append(*f.steps, step{identity: &v})
	} else {
		*f.steps = append(*f.steps, step{message: &v})
	}
	return nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	var steps []step
	var allow listFlag
	var mocks []mockOverride
	fs.Var(stepFlag{steps: &steps}, "message", "a user message; repeat for more turns of the same conversation")
	fs.Var(stepFlag{steps: &steps, identity: true}, "identity", "sign the session in as this identity for the turns after it (\"\" signs out)")
	wsPath := fs.String("workspace", "", "a workspace file declaring custom actions, connectors and model providers")
	mock := fs.Bool("mock", false, "run mockable nodes from their mockResponse / mockError")
	dbPath := fs.String("db", "", "keep the conversation in this SQLite file between invocations")
	sessionID := fs.Int64("session", 0, "with --db: continue this session instead of starting one")
	fs.Var(&allow, "allow-host", "a host or CIDR (with :port to open one port) outbound calls may reach although it is internal; repeatable")
	fs.Var(mockFlag{&mocks, parseMockResponse}, "mock-response", "NODE=JSON: the node's mockResponse for this run; repeatable")
	fs.Var(mockFlag{&mocks, parseMockError}, "mock-error", "NODE=CODE[:message]: the node's mockError for this run; repeatable")
	failureResponse := fs.String("failure-response", "", "what the user is told when a run fails (default \""+turn.DefaultFailureResponse+"\")")
	explore := fs.Bool("explore", false, "instead of running once, walk every path the mocks and replies can steer, in mock mode, and report the edges none took")
	maxPaths := fs.Int("max-paths", defaultMaxPaths, "with --explore: stop after this many paths")
	emitDir := fs.String("emit-scenarios", "", "with --explore: write scenarios taking every labelled edge some path took to this directory")
	pos, code, ok := parseCommand(fs, args, stdout)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, usageLine("run"))
		return 2
	}
	if *sessionID != 0 && *dbPath == "" {
		fmt.Fprintln(stderr, "wetel run: --session needs --db: a session lives in a store")
		return 2
	}
	allowlist, err := parseAllow(allow)
	if err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 2
	}
	var ws *workspace.File
	if *wsPath != "" {
		if ws, err = workspace.Load(*wsPath, os.LookupEnv); err != nil {
			fmt.Fprintf(stderr, "wetel run: %v\n", err)
			return 2
		}
	}
	g, err := loadGraph(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "wetel run: %s: %v\n", pos[0], err)
		return 1
	}
	if err := applyMocks(g, mocks); err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 2
	}
	if _, err := engine.Compile(g, node.Default); err != nil {
		fmt.Fprintf(stderr, "wetel run: %s: publishing would be refused:\n%v\n", pos[0], err)
		return 1
	}
	if !*explore && *emitDir != "" {
		fmt.Fprintln(stderr, "wetel run: --emit-scenarios writes what --explore finds: add --explore")
		return 2
	}
	if *explore {
		if *dbPath != "" || *maxPaths < 1 {
			fmt.Fprintln(stderr, "wetel run: --explore runs each path on a throwaway store (no --db), and --max-paths must be at least 1")
			return 2
		}
		o := exploreOptions{file: pos[0], message: "hello", emitDir: *emitDir, failureResponse: *failureResponse, maxPaths: *maxPaths}
		if first := firstMessage(steps); first != nil {
			o.message = *first
		}
		return cmdExplore(ctx, g, o, stdout, stderr)
	}
	// The custom actions and connectors are registered once the graph is
	// known to compile, so a bad graph starts no MCP server.
	svcs, err := newOfflineServices(ctx, ws, allowlist, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 2
	}
	off, err := openOffline(ctx, offlineOptions{graph: g, dbPath: *dbPath, sessionID: *sessionID, mock: *mock, failureResponse: *failureResponse, services: svcs, capture: true})
	if err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 1
	}
	defer off.Close()
	if !hasMessage(steps) {
		empty := ""
		steps = append(steps, step{message: &empty})
	}
	out, err := execSteps(ctx, off, steps)
	if err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 1
	}
	if failed := failedRuns(out); failed > 0 {
		// A script or CI step running a graph learns it broke without
		// parsing the JSON; 3 keeps it apart from "nothing ran" (1).
		fmt.Fprintf(stderr, "wetel run: %d run(s) FAILED\n", failed)
		return exitRunFailed
	}
	return 0
}

// exitRunFailed is wetel run's exit code when a run FAILED.
const exitRunFailed = 3

func failedRuns(out runOutput) int {
	n := 0
	for _, t := range out.Turns {
		for _, r := range t.Runs {
			if r.Status == vocab.RunFailed {
				n++
			}
		}
	}
	return n
}

func firstMessage(steps []step) *string {
	for _, s := range steps {
		if s.message != nil {
			return s.message
		}
	}
	return nil
}

func hasMessage(steps []step) bool {
	for _, s := range steps {
		if s.message != nil {
			return true
		}
	}
	return false
}

func execSteps(ctx context.Context, off *offline, steps []step) (runOutput, error) {
	out := runOutput{SessionID: off.session.ID, Turns: []turnOutput{}}
	for _, s := range steps {
		if s.identity != nil {
			if err := off.setIdentity(ctx, *s.identity); err != nil {
				return out, err
			}
			continue
		}
		res, err := off.send(ctx, *s.message)
		if err == turn.ErrSessionEnded {
			break
		}
		if err != nil {
			return out, err
		}
		out.Turns = append(out.Turns, turnJSON(*s.message, res, off.capture))
	}
	return out, nil
}

func turnJSON(text string, res turn.TurnResult, c *capture) turnOutput {
	t := turnOutput{Message: text, Runs: []runJSON{}, Messages: []messageJSON{}}
	for _, r := range res.Runs {
		t.Runs = append(t.Runs, runRow(r, c))
	}
	for _, m := range res.Messages {
		t.Messages = append(t.Messages, messageJSON{Text: m.Text, Mood: m.Mood, TurnComplete: m.TurnComplete})
	}
	return t
}

func runRow(r store.Run, c *capture) runJSON {
	j := runJSON{ID: r.ID, Status: r.Status, Error: r.Error, ErrorCode: r.ErrorCode, NodeTrace: r.NodeTrace}
	if r.ResumedFromRunID != 0 {
		id := r.ResumedFromRunID
		j.ResumedFromRunID = &id
	}
	if len(j.NodeTrace) == 0 {
		j.NodeTrace = json.RawMessage("[]")
	}
	j.NodeTrace, j.Vars = c.annotate(r.ID, j.NodeTrace)
	return j
}
