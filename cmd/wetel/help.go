package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one `wetel` subcommand as its help shows it. The flags are
// not listed here: `-h` prints the command's own FlagSet, so help cannot
// drift from what the command accepts.
type command struct {
	name     string
	synopsis []string // the ways to call it, after "wetel NAME"; a newline continues one
	summary  string   // one line for `wetel help`
	about    string   // a paragraph for `wetel help NAME`
	examples []string
}

var commands = []command{
	{
		name:     "validate",
		synopsis: []string{"FILE [--json]"},
		summary:  "Check a graph file: the publish checks and the diagnostics.",
		about: `Runs the checks publishing applies (refusing) and the diagnostics (advice,
never refusing) on a graph file, naming the node and the rule of each.

Exit codes: 0 publishable, 1 publishing would be refused, 2 usage error.`,
		examples: []string{"wetel validate examples/order-status.json", "wetel validate --json examples/bounded-retry.json"},
	},
	{
		name: "run",
		synopsis: []string{"FILE [--message TEXT]... [--identity ID] [--db PATH [--session N]]\n" +
			"[--workspace FILE] [--mock] [--mock-response NODE=JSON]...\n" +
			"[--mock-error NODE=CODE[:message]]... [--allow-host HOST]...",
			"FILE --explore [--message TEXT] [--max-paths N] [--emit-scenarios DIR]\n" +
				"[--mock-response NODE=JSON]... [--mock-error NODE=CODE[:message]]..."},
		summary: "Run a graph offline, one turn per --message, and print what happened as JSON.",
		about: `Sends each --message as one turn of one conversation and prints the runs,
their node traces and the messages as JSON. Each run shows its variables when
it finished ("vars"), and each COMPLETED trace row the value the node wrote to
its output variable ("output"): offline you own everything the run holds. A
question asked in one turn is answered by the next; --db keeps the
conversation between invocations.

With --explore it walks every path the graph allows instead, in mock mode:
each mockable node's own mock, each value a router, condition or switch is
seen to branch on for its output, and a failure where it has a failure edge; each question answered with
every option slot, with a reply matching none, and not answered. It prints
each distinct path with its messages and the edges no path took;
--emit-scenarios DIR writes scenarios (for wetel test) taking every labelled
edge some path took.

Exit codes: 0 every run completed or is awaiting input, 1 the graph or the
store could not be used (nothing ran), 2 usage error, 3 a run FAILED (the
output is printed in full).`,
		examples: []string{`wetel run examples/order-status.json --mock --message "where is my order?"`,
			`wetel run examples/shipping-await-reply.json --mock --message "where are my orders?" --message "2"`,
			`wetel run examples/shipping-await-reply.json --explore --emit-scenarios scenarios/`},
	},
	{
		name:     "test",
		synopsis: []string{"PATH... [--junit FILE] [--parallel N]"},
		summary:  "Run scenario files offline and report each expectation a turn did not meet.",
		about: `Runs each scenario (PATH is a file, or a directory whose *.scenario.yaml,
*.scenario.yml and *.scenario.json files are taken at any depth): a fresh
conversation on the scenario's graph in mock mode, with its mocks, fixed clock
and identity, one turn per entry; a turn answers the previous turn's question
by being the next message. Nothing leaves the process: a node without a mock
fails. Each failing turn prints what differed, with the node where the
expected and actual paths part. See docs/testing.md for the file format.

Exit codes: 0 every scenario passed, 1 a scenario failed or could not be run,
2 usage error.`,
		examples: []string{"wetel test examples/scenarios", "wetel test examples/scenarios/shipping.scenario.yaml --junit report.xml"},
	},
	{
		name:     "chat",
		synopsis: []string{"--graph FILE [--mock] [--db PATH [--session N]] [--identity ID] [--workspace FILE] [--allow-host HOST]...", "--server URL --key KEY [--agent N] [--session N] [--identity ID]"},
		summary:  "Converse with a graph file, or with an agent on a server, in the terminal.",
		about: `Each line typed is one turn; an empty line or the end of input quits. With
--graph the graph runs in this process, as with wetel run; with --server the
messages go to a server's agent and its replies are printed as they stream.`,
		examples: []string{"wetel chat --graph examples/shipping-await-reply.json --mock", `wetel chat --server http://127.0.0.1:8080 --key "$KEY"`},
	},
	{
		name:     "serve",
		synopsis: []string{"[--addr HOST:PORT] [--data DIR] [--database URL] [--log-format text|json] [--log-level LEVEL] [--allow-host HOSTS]"},
		summary:  "Serve the GraphQL API, live events, health and metrics.",
		about: `Serves the GraphQL API at /graphql, each session's events at
/api/sessions/{id}/events, /healthz and /metrics. The first start creates a
Demo workspace with a Help desk agent and prints its OWNER API key once
(WETEL_BOOTSTRAP_API_KEY chooses it instead). OTEL_EXPORTER_OTLP_ENDPOINT
turns on OpenTelemetry traces, exported over OTLP/HTTP.`,
		examples: []string{"wetel serve", "wetel serve --addr 0.0.0.0:8080 --database postgres://wetel@db/wetel"},
	},
	{
		name:     "apply",
		synopsis: []string{"FILE --server URL --key KEY"},
		summary:  "Declare workflows, agents, custom actions and connectors on a server from a file.",
		about: `Makes a server's workspace hold what a workspace file declares, by name;
applying the same file again changes nothing. ${NAME} in the file is read
from the environment.`,
		examples: []string{`wetel apply workspace.yaml --server http://127.0.0.1:8080 --key "$KEY"`},
	},
	{
		name:     "version",
		synopsis: []string{""},
		summary:  "Print the version and commit this binary was built from.",
		about:    `Prints the module version, the commit and the Go version from the binary's build information.`,
		examples: []string{"wetel version", "wetel --version"},
	},
	{
		name:     "help",
		synopsis: []string{"[COMMAND]"},
		summary:  "Show the commands, or one command's arguments, flags and examples.",
		about:    `Shows what a command takes; "wetel COMMAND -h" shows the same.`,
		examples: []string{"wetel help run"},
	},
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// usageLine is the command's synopsis, for a usage error.
func usageLine(name string) string {
	c, _ := lookupCommand(name)
	var b strings.Builder
	indent := "\n" + strings.Repeat(" ", len("usage: wetel "+c.name+" "))
	for i, s := range c.synopsis {
		if i == 0 {
			b.WriteString("usage: ")
		} else {
			b.WriteString("\n       ")
		}
		b.WriteString(strings.TrimSpace("wetel " + c.name + " " + strings.ReplaceAll(s, "\n", indent)))
	}
	return b.String()
}

// printOverview is `wetel help`.
func printOverview(w io.Writer) {
	fmt.Fprint(w, "wetel runs conversational agents as workflow graphs.\n\nUsage:\n  wetel COMMAND [arguments]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun \"wetel help COMMAND\" or \"wetel COMMAND -h\" for a command's arguments, flags and examples.\n")
}

// printCommandHelp is `wetel help NAME` and `wetel NAME -h`.
func printCommandHelp(w io.Writer, c command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\n\n%s\n", strings.Replace(usageLine(c.name), "usage:", "Usage:", 1), c.about)
	flags := 0
	fs.VisitAll(func(*flag.Flag) { flags++ })
	if flags > 0 {
		fmt.Fprint(w, "\nFlags:\n")
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	fmt.Fprint(w, "\nExamples:\n")
	for _, e := range c.examples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// newFlags is a command's FlagSet. Its errors go to stderr; its help is
// printed by parseCommand, to stdout, when asked for.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	return fs
}

// parseCommand parses a command's arguments. When it returns ok false the
// command exits with code: 0 after -h printed the help, 2 after a flag
// error (which the flag package has printed).
func parseCommand(fs *flag.FlagSet, args []string, stdout io.Writer) (pos []string, code int, ok bool) {
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c, _ := lookupCommand(fs.Name())
		printCommandHelp(stdout, c, fs)
		return nil, 0, false
	}
	if err != nil {
		fmt.Fprintf(fs.Output(), "%s\nRun \"wetel help %s\" for the flags and examples.\n", usageLine(fs.Name()), fs.Name())
		return nil, 2, false
	}
	return pos, 0, true
}

// cmdHelp is `wetel help [COMMAND]`. A command's help is what its own -h
// prints, so the flags listed are the ones it parses.
func cmdHelp(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("help", stderr)
	pos, code, ok := parseCommand(fs, args, stdout)
	if !ok {
		return code
	}
	if len(pos) == 0 {
		printOverview(stdout)
		return 0
	}
	if _, known := lookupCommand(pos[0]); !known || len(pos) > 1 {
		fmt.Fprintf(stderr, "wetel help: unknown command %q\n\n", strings.Join(pos, " "))
		printOverview(stderr)
		return 2
	}
	return run(ctx, []string{pos[0], "-h"}, strings.NewReader(""), stdout, stderr)
}
