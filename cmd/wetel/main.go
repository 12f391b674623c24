// Command wetel runs conversational agents as workflow graphs.
//
//	wetel serve [--addr HOST:PORT] [--data DIR] [--database URL]
//	wetel validate FILE [--json]
//	wetel run FILE [--message TEXT]... [--identity ID] [--db PATH] [--mock] ...
//	wetel chat --graph FILE [--mock] [--db PATH] | --server URL --key KEY
//	wetel apply FILE --server URL --key KEY
//	wetel test PATH... [--junit FILE]
//	wetel version
//	wetel help [COMMAND]
//
// `wetel help COMMAND` (or `wetel COMMAND -h`) shows a command's
// arguments, flags, exit codes and examples.
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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: tests call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printOverview(stderr)
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
	case "test":
		return cmdTest(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-version":
		return cmdVersion(args[1:], stdout, stderr)
	case "help":
		return cmdHelp(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "-help":
		printOverview(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "wetel: unknown command %q\n\n", args[0])
	printOverview(stderr)
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
