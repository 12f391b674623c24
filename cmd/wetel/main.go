// Command wetel runs conversational agents as workflow graphs.
//
//	wetel serve [--addr HOST:PORT] [--data DIR] [--database URL]
//	wetel validate FILE [--json]
//	wetel run FILE [--message TEXT]... [--identity ID] [--db PATH] [--mock] ...
//	wetel chat --graph FILE [--mock] [--db PATH] | --server URL --key KEY
//	wetel apply FILE --server URL --key KEY
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	_ "github.com/wetel/wetel/node/all" // every node type
)

const usage = `wetel runs conversational agents as workflow graphs.

Usage:
  wetel validate FILE [--json]
      Run the publish checks and the diagnostics on a graph file.
      Exits 1 when publishing would be refused.
  wetel run FILE [--message TEXT]... [--identity ID] [--db PATH [--session N]]
                 [--workspace FILE] [--mock] [--mock-response NODE=JSON]...
                 [--mock-error NODE=CODE[:message]]... [--allow-host HOST]...
      Send each --message as one turn of one conversation and print the
      runs, messages and node traces as JSON. A question asked in one turn
      is answered by the next; --db keeps the conversation between runs.
  wetel serve [--addr HOST:PORT] [--data DIR] [--database URL] [--log-format text|json]
      Serve the GraphQL API at /graphql, events, /healthz and /metrics.
      Environment: WETEL_ADDR, WETEL_DATA_DIR, WETEL_DATABASE_URL,
      WETEL_LOG_FORMAT, WETEL_BOOTSTRAP_API_KEY (the first workspace's
      OWNER key, instead of one printed once).
  wetel apply FILE --server URL --key KEY
      Declare workflows and agents on a server from a workspace file;
      applying it again changes nothing.
  wetel chat --server URL --key KEY [--agent N] [--session N]
      Talk to an agent on a server, its messages shown as they stream.
  wetel chat --graph FILE [--mock] [--db PATH [--session N]] [--identity ID] [--workspace FILE] [--allow-host HOST]...
      Converse with a graph in the terminal, one line a turn.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return cmdServe(ctx, args[1:], stdout, stderr)
	case "apply":
		return cmdApply(ctx, args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "run":
		return cmdRun(ctx, args[1:], stdout, stderr)
	case "chat":
		return cmdChat(ctx, args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "wetel: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// parseInterspersed lets flags come before or after the positional
// arguments, as in `wetel run FILE --mock`, which the flag package alone
// stops parsing at FILE.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// listFlag collects a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
