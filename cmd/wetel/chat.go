package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wetel/wetel/engine"
	"github.com/wetel/wetel/node"
	"github.com/wetel/wetel/turn"
	"github.com/wetel/wetel/workspace"
)

// cmdChat converses in the terminal with a graph file, in process, on the
// same code path as `wetel run`: each line typed is one turn.
func cmdChat(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("chat", stderr)
	graphPath := fs.String("graph", "", "the graph file to talk to")
	mock := fs.Bool("mock", false, "run mockable nodes from their mockResponse / mockError")
	dbPath := fs.String("db", "", "keep the conversation in this SQLite file")
	sessionID := fs.Int64("session", 0, "with --db: continue this session")
	identity := fs.String("identity", "", "sign the session in as this identity")
	serverURL := fs.String("server", os.Getenv("WETEL_SERVER"), "talk to this server (http://host:port) instead of a graph file (WETEL_SERVER)")
	// The key's default is read after parsing, so -h never prints it.
	key := fs.String("key", "", "the server's API key (default: WETEL_API_KEY)")
	agentID := fs.Int64("agent", 0, "with --server: the agent to talk to (default: the first)")
	wsPath := fs.String("workspace", "", "with --graph: the workspace file declaring custom actions, MCP connectors and model providers")
	var allow listFlag
	fs.Var(&allow, "allow-host", "with --graph: a host or CIDR (with :port to open one port) outbound calls may reach although it is internal; repeatable")
	pos, code, ok := parseCommand(fs, args, stdout)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "wetel chat: unexpected argument %q (the graph file goes after --graph)\n", pos[0])
		return 2
	}
	if *key == "" {
		*key = os.Getenv("WETEL_API_KEY")
	}
	if *serverURL != "" {
		return chatRemote(ctx, remoteChat{url: *serverURL, key: *key, agent: *agentID, session: *sessionID, identity: *identity}, stdin, stdout, stderr)
	}
	if *graphPath == "" {
		fmt.Fprintln(stderr, usageLine("chat"))
		return 2
	}
	g, err := loadGraph(*graphPath)
	if err != nil {
		fmt.Fprintf(stderr, "wetel chat: %s: %v\n", *graphPath, err)
		return 1
	}
	if _, err := engine.Compile(g, node.Default); err != nil {
		fmt.Fprintf(stderr, "wetel chat: %s: publishing would be refused:\n%v\n", *graphPath, err)
		return 1
	}
	svcs, err := chatServices(ctx, *wsPath, allow, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wetel chat: %v\n", err)
		return 2
	}
	off, err := openOffline(ctx, offlineOptions{graph: g, dbPath: *dbPath, sessionID: *sessionID, mock: *mock, services: svcs})
	if err != nil {
		fmt.Fprintf(stderr, "wetel chat: %v\n", err)
		return 1
	}
	defer off.Close()
	if *identity != "" {
		if err := off.setIdentity(ctx, *identity); err != nil {
			fmt.Fprintf(stderr, "wetel chat: %v\n", err)
			return 1
		}
	}
	// Streamed replies are printed as they arrive; their whole message,
	// which follows, is then not printed again.
	var streamed strings.Builder
	off.svc.Observer = func(_, _ int64, e engine.Event) {
		if e.Kind == engine.EventMessageChunk && e.Message != nil {
			fmt.Fprint(stdout, e.Message.Text)
			streamed.WriteString(e.Message.Text)
		}
	}
	fmt.Fprintf(stdout, "Session %d. Type a message; an empty line or end of input quits.\n", off.session.ID)
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	for {
		fmt.Fprint(stdout, "> ")
		if !in.Scan() || strings.TrimSpace(in.Text()) == "" {
			fmt.Fprintln(stdout)
			return 0
		}
		res, err := off.send(ctx, in.Text())
		if err == turn.ErrSessionEnded {
			fmt.Fprintln(stdout, "(the conversation has ended)")
			return 0
		}
		if err != nil {
			fmt.Fprintf(stderr, "wetel chat: %v\n", err)
			return 1
		}
		for _, m := range res.Messages {
			if rest, ok := strings.CutPrefix(streamed.String(), m.Text); ok && m.Text != "" {
				fmt.Fprintln(stdout)
				streamed.Reset()
				streamed.WriteString(rest)
				continue
			}
			fmt.Fprintln(stdout, m.Text)
		}
		streamed.Reset()
		for _, r := range res.Runs {
			if r.Status == "FAILED" {
				fmt.Fprintf(stdout, "(run %d failed: %s)\n", r.ID, r.Error)
			}
		}
		if off.session.Status == "ENDED" {
			return 0
		}
	}
}

// chatServices are the offline Services of a chat, as `wetel run` builds
// them: the workspace file's actions and connectors, and the allowlist.
func chatServices(ctx context.Context, wsPath string, allow listFlag, stderr io.Writer) (*offlineServices, error) {
	allowlist, err := parseAllow(allow)
	if err != nil {
		return nil, err
	}
	var ws *workspace.File
	if wsPath != "" {
		if ws, err = workspace.Load(wsPath, os.LookupEnv); err != nil {
			return nil, err
		}
	}
	return newOfflineServices(ctx, ws, allowlist, stderr)
}
