package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wetel/wetel/client"
)

type remoteChat struct {
	url, key, identity string
	agent, session     int64
}

// chatRemote converses with an agent on a server: each line is sent with
// sendMessage while the session's event stream prints what the agent says
// as it is said.
func chatRemote(ctx context.Context, o remoteChat, stdin io.Reader, stdout, stderr io.Writer) int {
	if o.key == "" {
		fmt.Fprintln(stderr, "wetel chat: --key (or WETEL_API_KEY) is required with --server")
		return 2
	}
	c := client.New(o.url, o.key)
	session, err := openRemoteSession(ctx, c, o)
	if err != nil {
		fmt.Fprintf(stderr, "wetel chat: %v\n", err)
		return 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	said := make(chan struct{}, 16)
	var last int64
	var streamed strings.Builder
	var sess struct{ Session struct{ AgentID int64 } }
	if err := c.Do(ctx, `query($s: Int!) { session(id: $s) { id agentId } }`, map[string]any{"s": session}, &sess); err != nil {
		fmt.Fprintf(stderr, "wetel chat: %v\n", err)
		return 1
	}
	agent := sess.Session.AgentID
	go func() {
		for ctx.Err() == nil {
			// Reconnect from the last seq seen: a dropped stream misses nothing.
			last, _ = c.Events(ctx, session, last, func(ev client.Event) bool {
				printEvent(stdout, ev, said, &streamed)
				return true
			})
		}
	}()
	fmt.Fprintf(stdout, "Session %d on %s. Type a message; an empty line or end of input quits.\n", session, o.url)
	if reason := notReady(ctx, c, agent); reason != "" {
		fmt.Fprintf(stdout, "Notice: agent %d will not answer: %s\n", agent, reason)
	}
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	for {
		fmt.Fprint(stdout, "> ")
		if !in.Scan() || strings.TrimSpace(in.Text()) == "" {
			fmt.Fprintln(stdout)
			return 0
		}
		var turn struct {
			SendMessage struct{ Runs []struct{ ID int64 } }
		}
		err := c.Do(ctx, `mutation($s: Int!, $t: String!) { sendMessage(sessionId: $s, text: $t) { runs { id } messages { id } } }`,
			map[string]any{"s": session, "t": in.Text()}, &turn)
		if err != nil {
			fmt.Fprintf(stderr, "wetel chat: %v\n", err)
			continue
		}
		if len(turn.SendMessage.Runs) == 0 {
			// Seed 001: the message is kept and nothing runs; say so
			// rather than print nothing.
			reason := notReady(ctx, c, agent)
			if reason == "" {
				reason = "no workflow ran for this message"
			}
			fmt.Fprintf(stdout, "(no reply: %s)\n", reason)
		}
		select {
		case <-said: // the turn's TurnComplete has been printed
		case <-time.After(time.Minute):
			fmt.Fprintln(stderr, "wetel chat: no TurnComplete event within a minute; is the event stream reachable?")
		}
	}
}

// notReady is why the agent runs no workflow, or "" when it does (or the
// server cannot say).
func notReady(ctx context.Context, c *client.Client, agent int64) string {
	var out struct {
		Agent struct {
			Ready          bool
			NotReadyReason *string
		}
	}
	if err := c.Do(ctx, `query($a: Int!) { agent(id: $a) { ready notReadyReason } }`, map[string]any{"a": agent}, &out); err != nil {
		return ""
	}
	if out.Agent.Ready || out.Agent.NotReadyReason == nil {
		return ""
	}
	return *out.Agent.NotReadyReason
}

func openRemoteSession(ctx context.Context, c *client.Client, o remoteChat) (int64, error) {
	if o.session != 0 {
		return o.session, nil
	}
	agent := o.agent
	if agent == 0 {
		var out struct{ Agents []struct{ ID int64 } }
		if err := c.Do(ctx, `{ agents { id } }`, nil, &out); err != nil {
			return 0, err
		}
		if len(out.Agents) == 0 {
			return 0, errors.New("the workspace has no agent: create one, or pass --agent")
		}
		agent = out.Agents[0].ID
	}
	vars := map[string]any{"a": agent, "c": "wetel-chat"}
	if o.identity != "" {
		vars["i"] = o.identity
	}
	var out struct{ StartSession struct{ ID int64 } }
	err := c.Do(ctx, `mutation($a: Int!, $i: String, $c: String) { startSession(input: {agentId: $a, identity: $i, channel: $c}) { id } }`, vars, &out)
	return out.StartSession.ID, err
}

// printEvent shows the agent's messages; a question's options are part of
// its text. TurnComplete wakes the prompt.
// streamed holds what was streamed and not yet matched by its whole message.
func printEvent(w io.Writer, ev client.Event, said chan<- struct{}, streamed *strings.Builder) {
	switch ev.Type {
	case "Message":
		var m struct {
			Text    string
			IsFinal *bool
		}
		if json.Unmarshal(ev.Data, &m) != nil {
			return
		}
		if m.IsFinal != nil && !*m.IsFinal {
			// A streamed piece: printed as it arrives.
			if streamed.Len() == 0 {
				fmt.Fprint(w, "\n")
			}
			streamed.WriteString(m.Text)
			fmt.Fprint(w, m.Text)
			return
		}
		if rest, ok := strings.CutPrefix(streamed.String(), m.Text); ok && m.Text != "" {
			// The whole message of what was streamed: already printed.
			streamed.Reset()
			streamed.WriteString(rest)
			fmt.Fprint(w, "\n")
			return
		}
		fmt.Fprintf(w, "\n%s\n", m.Text)
	case "NodeFailed":
		var f struct{ NodeID, ErrorCode string }
		if json.Unmarshal(ev.Data, &f) == nil {
			fmt.Fprintf(w, "\n[node %s failed: %s]\n", f.NodeID, f.ErrorCode)
		}
	case "TurnComplete":
		streamed.Reset()
		select {
		case said <- struct{}{}:
		default:
		}
	}
}
