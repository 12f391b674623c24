package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/workspace"
)

// runOutput is what `wetel run` prints: one entry per --message.
type runOutput struct {
	Turns []turnOutput `json:"turns"`
}

type turnOutput struct {
	Message  string         `json:"message"`
	Runs     []runJSON      `json:"runs"`
	Messages []node.Message `json:"messages"`
}

type runJSON struct {
	ID               int64             `json:"id"`
	Status           string            `json:"status"`
	ResumedFromRunID *int64            `json:"resumedFromRunId"`
	Error            string            `json:"error,omitempty"`
	ErrorCode        string            `json:"errorCode,omitempty"`
	NodeTrace        []engine.TraceRow `json:"nodeTrace"`
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var messages, allow listFlag
	fs.Var(&messages, "message", "a user message; repeat for more turns of the same conversation")
	wsPath := fs.String("workspace", "", "a workspace file declaring custom actions and connectors")
	mock := fs.Bool("mock", false, "run mockable nodes from their mockResponse / mockError")
	fs.Var(&allow, "allow-host", "a host or CIDR outbound calls may reach although it is internal; repeatable")
	var mocks []mockOverride
	fs.Var(mockFlag{&mocks, parseMockResponse}, "mock-response", "NODE=JSON: the node's mockResponse for this run; repeatable")
	fs.Var(mockFlag{&mocks, parseMockError}, "mock-error", "NODE=CODE[:message]: the node's mockError for this run; repeatable")
	failureResponse := fs.String("failure-response", "", "what the user is told when a run fails (default \""+turn.DefaultFailureResponse+"\")")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: wetel run FILE [--message TEXT]... [--workspace FILE] [--mock] [--mock-response NODE=JSON]... [--mock-error NODE=CODE[:message]]... [--allow-host HOST]...")
		return 2
	}
	for _, h := range allow {
		if err := checkAllowHost(h); err != nil {
			fmt.Fprintf(stderr, "wetel run: --allow-host %q: %v\n", h, err)
			return 2
		}
	}
	if *wsPath != "" {
		if _, err := workspace.Load(*wsPath, os.LookupEnv); err != nil {
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
	plan, err := engine.Compile(g, node.Default)
	if err != nil {
		fmt.Fprintf(stderr, "wetel run: %s: publishing would be refused:\n%v\n", pos[0], err)
		return 1
	}
	eng, err := engine.New(engine.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 2
	}
	if len(messages) == 0 {
		messages = listFlag{""}
	}
	out := execTurns(ctx, &turn.Runner{Engine: eng, Plan: plan, Mock: *mock, FailureResponse: *failureResponse}, messages)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		fmt.Fprintf(stderr, "wetel run: %v\n", err)
		return 1
	}
	return 0
}

func execTurns(ctx context.Context, r *turn.Runner, messages []string) runOutput {
	sess := &turn.Session{ID: 1, TenantID: 1, AgentID: 1}
	out := runOutput{Turns: []turnOutput{}}
	for _, m := range messages {
		if sess.Ended {
			break
		}
		res := r.Send(ctx, sess, m)
		t := turnOutput{Message: m, Messages: res.Messages}
		if t.Messages == nil {
			t.Messages = []node.Message{}
		}
		for _, rr := range res.Runs {
			t.Runs = append(t.Runs, runJSON{ID: rr.RunID, Status: rr.Status, Error: rr.Error, ErrorCode: rr.ErrorCode, NodeTrace: rr.NodeTrace})
		}
		out.Turns = append(out.Turns, t)
	}
	return out
}

// checkAllowHost accepts a host name, an IP address or a CIDR.
func checkAllowHost(h string) error {
	if _, _, err := net.ParseCIDR(h); err == nil {
		return nil
	}
	if net.ParseIP(h) != nil {
		return nil
	}
	if h == "" || len(h) > 253 {
		return fmt.Errorf("not a host name, IP address or CIDR")
	}
	for _, c := range h {
		if !(c == '-' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return fmt.Errorf("not a host name, IP address or CIDR")
		}
	}
	return nil
}
